package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// A write_file larger than the history keeps (issue 26): the file gets
// the content exactly; the next request, and keel log show, carry the
// notice (size, SHA-256, path), not the content; keel undo restores the
// file it overwrote byte for byte and removes the one it created.
func TestBigWriteIsShortenedAndUndone(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), project(t)
	var b strings.Builder
	for i := 0; b.Len() < 3<<20; i++ {
		fmt.Fprintf(&b, "func generated%07d(x int) int { return x*%d + 1 } // \"quoted\" \\ é\n", i, i%97)
	}
	content := b.String()
	args := func(path string) string {
		a, _ := json.Marshal(map[string]string{"path": path, "content": content})
		return string(a)
	}
	writes := llmtest.ToolRound(llmtest.Call{Name: "write_file", Args: args("main.go")}, llmtest.Call{Name: "write_file", Args: args("gen/new.go")})
	writes.ArgChunk = 64 << 10
	rounds := []llmtest.Round{llmtest.ToolRound(llmtest.Call{Name: "read_file", Args: `{"path":"main.go"}`}), writes}
	srv := llmtest.Start(t, llmtest.Script{Handler: func(_ llmtest.RecordedRequest, n int) llmtest.Round {
		if n < len(rounds) {
			return rounds[n]
		}
		return llmtest.TextRound("written") // a guard's nudge included
	}})
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "write them", "--yolo", "--output-format", "json")
	if code != 0 {
		t.Fatalf("task: exit %d: %s%s", code, errOut, out[max(0, len(out)-600):])
	}
	for _, name := range []string{"main.go", "gen/new.go"} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != content {
			t.Fatalf("%s holds %d bytes, want the %d written", name, len(got), len(content))
		}
	}
	sum := sha256.Sum256([]byte(content))
	notice := fmt.Sprintf("not kept in the conversation, too large to send again; the call ran; sha256 %s", hex.EncodeToString(sum[:]))
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if len(last.Body) > 256<<10 || !strings.Contains(string(last.Body), notice) || !strings.Contains(string(last.Body), "for write_file on gen/new.go not kept") {
		t.Errorf("the request after the writes is %d bytes; it lacks the notice %q", len(last.Body), notice)
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	show, errOut, code := runKeelHome(t, home, nil, dir, "", "log", "show", res.SessionID, "--json")
	if code != 0 || !strings.Contains(show, notice) || strings.Contains(show, "generated0000001") {
		t.Errorf("keel log show: exit %d, notice there %v, content there %v: %s", code, strings.Contains(show, notice), strings.Contains(show, "generated0000001"), errOut)
	}
	out, errOut, code = runKeelHome(t, home, nil, dir, "", "undo")
	if code != 0 {
		t.Fatalf("undo: exit %d: %s%s", code, out, errOut)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(got) != "package main\n\nfunc main() {}\n" {
		t.Errorf("main.go after undo: %.80q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "gen", "new.go")); !os.IsNotExist(err) {
		t.Errorf("gen/new.go after undo: %v", err)
	}
}
