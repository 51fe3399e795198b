package tools

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// scanForEdit finds what strings.Index finds, across every chunk
// boundary, with the right line numbers and hash.
func TestScanForEditMatchesNaive(t *testing.T) {
	texts := []string{"aaaaa", "xaax\naa\nxxaa", "ab\nab\nab", "no match here", "", "line1\nline2\nneedle\n"}
	olds := []string{"aa", "aaa", "ab\n", "needle", "\n", "x"}
	for _, text := range texts {
		for _, old := range olds {
			want := naiveOffsets(text, old)
			for chunk := 1; chunk <= 7; chunk++ {
				got, err := scanChunked(strings.NewReader(text), []byte(old), 100, chunk)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(got.offsets, got.lines) != fmt.Sprint(want.offsets, want.lines) {
					t.Errorf("%q in %q chunk %d: got %v %v, want %v %v", old, text, chunk, got.offsets, got.lines, want.offsets, want.lines)
				}
				if sum := sha256.Sum256([]byte(text)); !bytes.Equal(got.sum, sum[:]) {
					t.Errorf("%q chunk %d: wrong hash", text, chunk)
				}
			}
		}
	}
}

func naiveOffsets(text, old string) fileScan {
	var fs fileScan
	for from := 0; ; {
		i := strings.Index(text[from:], old)
		if i < 0 {
			return fs
		}
		at := from + i
		fs.offsets = append(fs.offsets, int64(at))
		fs.lines = append(fs.lines, strings.Count(text[:at], "\n")+1)
		from = at + len(old)
	}
}

// bigFile writes a file of about size bytes of numbered lines.
func bigFile(t *testing.T, ws *Workspace, name string, size int, crlf bool) string {
	t.Helper()
	var b strings.Builder
	eol := "\n"
	if crlf {
		eol = "\r\n"
	}
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "line %08d of a large generated file%s", i, eol)
	}
	p := filepath.Join(ws.Root(), name)
	writeTestFile(t, p, b.String())
	return b.String()
}

func TestEditLargeFile(t *testing.T) {
	t.Parallel() // CPU-bound under -race; overlaps the other long tests after the serial ones
	ws := newTestWS(t, nil)
	for _, crlf := range []bool{false, true} {
		t.Run(fmt.Sprintf("crlf=%v", crlf), func(t *testing.T) {
			name := fmt.Sprintf("big%v.txt", crlf)
			orig := bigFile(t, ws, name, largeFileBytes+(2<<20), crlf)
			abs := filepath.Join(ws.Root(), name)
			ws.MarkRead(abs, Version([]byte(orig)))
			cases := []struct {
				args    m
				isErr   bool
				want    []string
				applied func(string) string
			}{
				{m{"old_string": "generated file", "new_string": "file"}, true, []string{"occurs more than once", "lines 1 and 2"}, nil},
				{m{"old_string": "line 00000010 of a large generated file\nline 00000011", "new_string": "ten\neleven"}, false, []string{"@@ -11,2 +11,2 @@"},
					func(s string) string {
						eol := map[bool]string{true: "\r\n", false: "\n"}[crlf]
						return strings.Replace(s, "line 00000010 of a large generated file"+eol+"line 00000011", "ten"+eol+"eleven", 1)
					}},
				{m{"old_string": "no such text", "new_string": "x"}, true, []string{"not found", "exactly"}, nil},
				{m{"old_string": "line 0000100", "new_string": "line #", "replace_all": true}, false, []string{"replaced 10 occurrences", "(7 more"},
					func(s string) string { return strings.ReplaceAll(s, "line 0000100", "line #") }},
				{m{"old_string": "large generated", "new_string": "big", "replace_all": true}, true, []string{"too many to keep"}, nil},
			}
			cur := orig
			for _, c := range cases {
				c.args["path"] = name
				res := call(t, ws, Options{}, NameEditFile, c.args)
				wantOutput(t, res, c.isErr, c.want...)
				if c.applied == nil {
					continue
				}
				want := c.applied(cur)
				if got := readTestFile(t, abs); got != want {
					t.Fatalf("file after %v differs (len %d, want %d)", c.args, len(got), len(want))
				}
				if ch := res.Changes[0]; ch.Before != nil || ch.After != nil || len(ch.Splices) == 0 || len(res.Diff) > 64<<10 {
					t.Errorf("a large edit keeps %d+%d bytes of content and a %d-byte diff", len(ch.Before), len(ch.After), len(res.Diff))
				}
				undoAll(t, res.Changes)
				if got := readTestFile(t, abs); got != cur {
					t.Fatal("undo did not restore the large file")
				}
				ws.MarkRead(abs, Version([]byte(cur)))                             // read again after the undo
				wantOutput(t, call(t, ws, Options{}, NameEditFile, c.args), false) // and edit again, to go on from there
				cur = want
			}
		})
	}
}

// A one-word edit of a 64 MB file allocates a small fraction of it.
func TestEditLargeFileStreams(t *testing.T) {
	ws := newTestWS(t, nil)
	orig := bigFile(t, ws, "huge.txt", 64<<20, false)
	abs := filepath.Join(ws.Root(), "huge.txt")
	ws.MarkRead(abs, Version([]byte(orig)))
	orig = ""
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := call(t, ws, Options{}, NameEditFile, m{"path": "huge.txt", "old_string": "line 00100000 of", "new_string": "LINE of"})
	runtime.ReadMemStats(&after)
	wantOutput(t, res, false, "updated huge.txt")
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("editing a 64 MB file allocated %d MB", alloc>>20)
	}
	if fi, _ := os.Stat(abs); fi.Size() != 64<<20+int64(len("LINE of")-len("line 00100000 of")) && fi.Size() < 64<<20-32 {
		t.Errorf("size after edit: %d", fi.Size())
	}
}
