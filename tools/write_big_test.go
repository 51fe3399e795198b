package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A write_file past maxDiffBytes is streamed from its arguments: the file
// gets exactly the content (escapes and UTF-8 decoded), the change keeps
// the hashes and not a copy (AfterNotKept), the line count is right; a
// CRLF file keeps its line endings through the ordinary path; strictness
// holds (an unknown field is refused, nothing written).
func TestWriteFileStreamsLargeContent(t *testing.T) {
	content := strings.Repeat("line \"quoted\" \\ é\t\u2028 end\n", 120<<10/30*30) + "no newline at the end"
	ws := newTestWS(t, map[string]string{"crlf.txt": "a\r\nb\r\n"})
	tool, _ := Lookup(New(ws, Options{}), NameWriteFile)
	run := func(args map[string]string) Result {
		t.Helper()
		raw, _ := json.Marshal(args)
		if len(raw) <= maxDiffBytes {
			t.Fatalf("the test's arguments are %d bytes, not past %d", len(raw), maxDiffBytes)
		}
		res, err := tool.Run(context.Background(), raw)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(map[string]string{"path": "big/new.txt", "content": content})
	got, _ := os.ReadFile(filepath.Join(ws.Root(), "big", "new.txt"))
	if res.IsError || string(got) != content {
		t.Fatalf("wrote %d bytes (want %d): %s", len(got), len(content), res.Output)
	}
	ch := res.Changes[0]
	if !ch.AfterNotKept || ch.After != nil || ch.AfterSHA256 != sha256Hex([]byte(content)) || ch.Existed {
		t.Errorf("change: not kept %v, after %d bytes, hash %s", ch.AfterNotKept, len(ch.After), ch.AfterSHA256)
	}
	if want := commas(countLines([]byte(content))) + " lines"; !strings.Contains(res.Output, want) {
		t.Errorf("output %q lacks %q", res.Output, want)
	}
	ws.MarkRead(filepath.Join(ws.Root(), "crlf.txt"), Version([]byte("a\r\nb\r\n")))
	run(map[string]string{"path": "crlf.txt", "content": content})
	if got, _ := os.ReadFile(filepath.Join(ws.Root(), "crlf.txt")); string(got) != strings.ReplaceAll(content, "\n", "\r\n") {
		t.Errorf("the CRLF file lost its line endings")
	}
	if res := run(map[string]string{"path": "other.txt", "content": content, "contnet": "x"}); !res.IsError {
		t.Errorf("an unknown field was accepted: %s", res.Output)
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "other.txt")); !os.IsNotExist(err) {
		t.Errorf("refused arguments wrote the file: %v", err)
	}
}
