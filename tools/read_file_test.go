package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	var big strings.Builder
	for i := 1; i <= 1250; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	ws := newTestWS(t, map[string]string{
		"main.go":      "package main\n\nfunc main() {}\n",
		"big.txt":      big.String(),
		"empty.txt":    "",
		"crlf.txt":     "one\r\ntwo\r\n",
		"nofinal.txt":  "a\nb",
		"latin1.txt":   "caf\xe9\nok\n",
		"bin.dat":      "ab\x00cd",
		"dir/x.txt":    "x",
		"sp ace/ü.txt": "unicode\n",
		"long.txt":     strings.Repeat("x", 5000) + "\n",
	})
	writeTestFile(t, filepath.Join(ws.home, "h.txt"), "home\n")
	for name, size := range map[string]int64{"large.bin": largeFileBytes + 1, "huge.bin": readMaxFileBytes + 1} {
		writeTestFile(t, filepath.Join(ws.Root(), name), "")
		if err := os.Truncate(filepath.Join(ws.Root(), name), size); err != nil { // sparse: nothing written
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		args  m
		isErr bool
		want  []string
		not   []string
	}{
		{"relative", m{"path": "main.go"}, false, []string{"     1\tpackage main", "     3\tfunc main() {}", "(all 3 lines)"}, nil},
		{"absolute", m{"path": filepath.Join(ws.Root(), "main.go")}, false, []string{"package main"}, nil},
		{"dotdot", m{"path": "dir/../main.go"}, false, []string{"package main"}, nil},
		{"tilde", m{"path": "~/h.txt"}, false, []string{"home"}, nil},
		{"spaces and unicode", m{"path": "sp ace/ü.txt"}, false, []string{"unicode"}, nil},
		{"huge first page", m{"path": "big.txt"}, false, []string{"line 400\n", "lines 1-400 of 1,250", "850 more; continue with offset=401"}, []string{"line 401\n"}},
		{"huge next page", m{"path": "big.txt", "offset": 401, "limit": 10}, false, []string{"   401\tline 401", "lines 401-410 of 1,250"}, []string{"line 400\n"}},
		{"last page", m{"path": "big.txt", "offset": 1201}, false, []string{"line 1250", "lines 1,201-1,250 of 1,250"}, []string{"more;"}},
		{"past end", m{"path": "big.txt", "offset": 2000}, true, []string{"offset 2000 is past the end", "1,250 lines"}, nil},
		{"empty", m{"path": "empty.txt"}, false, []string{"empty.txt is empty"}, nil},
		{"crlf", m{"path": "crlf.txt"}, false, []string{"     1\tone\n", "CRLF line endings"}, []string{"\r"}},
		{"no final newline", m{"path": "nofinal.txt"}, false, []string{"     2\tb\n", "no newline at end of file"}, nil},
		{"invalid utf8", m{"path": "latin1.txt"}, false, []string{"not valid UTF-8", `caf\xE9`}, nil},
		{"binary", m{"path": "bin.dat"}, true, []string{"binary file"}, nil},
		{"directory", m{"path": "dir"}, true, []string{"is a directory; use list_dir"}, nil},
		// Over largeFileBytes the file is streamed (readLarge, whose binary
		// message has no size); over readMaxFileBytes it is not read.
		{"large file streamed", m{"path": "large.bin"}, true, []string{"large.bin is a binary file; read_file"}, []string{"(8.0 MB)"}},
		{"huge file refused", m{"path": "huge.bin"}, true, []string{"huge.bin is 256.0 MB, too large to read"}, nil},
		{"missing", m{"path": "nope.go"}, true, []string{"file not found: nope.go"}, nil},
		{"empty path", m{"path": ""}, true, []string{"path is required"}, nil},
		{"negative offset", m{"path": "main.go", "offset": -1}, true, []string{"must be positive"}, nil},
		{"long line capped", m{"path": "long.txt"}, false, []string{"line truncated: 3,000 more bytes"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, ws, Options{}, NameReadFile, tc.args)
			wantOutput(t, res, tc.isErr, tc.want...)
			for _, s := range tc.not {
				if strings.Contains(res.Output, s) {
					t.Errorf("output has %q", s)
				}
			}
			if !tc.isErr && len(res.Reads) != 1 {
				t.Errorf("Reads = %v, want one span", res.Reads)
			}
		})
	}
}

func TestReadFileSpan(t *testing.T) {
	ws := newTestWS(t, map[string]string{"f.txt": "a\nb\nc\nd\n"})
	res := call(t, ws, Options{}, NameReadFile, m{"path": "f.txt", "offset": 2, "limit": 2})
	want := ReadSpan{Path: filepath.Join(ws.Root(), "f.txt"), Version: Version([]byte("a\nb\nc\nd\n")), From: 2, To: 3, Total: 4}
	if len(res.Reads) != 1 || res.Reads[0] != want {
		t.Errorf("Reads = %+v, want %+v", res.Reads, want)
	}
}

func TestReadFileOutsideViaSymlink(t *testing.T) {
	ws := newTestWS(t, nil)
	out := t.TempDir()
	writeTestFile(t, filepath.Join(out, "s.txt"), "secret\n")
	must(t, os.Symlink(filepath.Join(out, "s.txt"), filepath.Join(ws.Root(), "link.txt")))
	res := call(t, ws, Options{}, NameReadFile, m{"path": "link.txt"})
	real, _ := filepath.EvalSymlinks(filepath.Join(out, "s.txt"))
	if len(res.Reads) != 1 || res.Reads[0].Path != real || ws.Inside(res.Reads[0].Path) {
		t.Errorf("span path %v should be the resolved outside path %s", res.Reads, real)
	}
}
