package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	ws := newTestWS(t, map[string]string{"old.txt": "old\n", "crlf.txt": "a\r\nb\r\n", "dir/x": ""})
	opts := Options{}
	read := func(p string) { call(t, ws, opts, NameReadFile, m{"path": p}) }

	t.Run("create with parents", func(t *testing.T) {
		res := call(t, ws, opts, NameWriteFile, m{"path": "new/deep/ünï file.go", "content": "package x\n"})
		wantOutput(t, res, false, "created new/deep/ünï file.go (1 lines)")
		p := filepath.Join(ws.Root(), "new/deep/ünï file.go")
		if readTestFile(t, p) != "package x\n" {
			t.Error("content not written")
		}
		if len(res.Changes) != 1 || res.Changes[0].Existed || res.Changes[0].Path != p || string(res.Changes[0].After) != "package x\n" {
			t.Errorf("Changes = %+v", res.Changes)
		}
		// keel wrote it, so it may write again without reading
		wantOutput(t, call(t, ws, opts, NameWriteFile, m{"path": "new/deep/ünï file.go", "content": "package y\n"}), false, "updated")
	})
	t.Run("existing file not read", func(t *testing.T) {
		res := call(t, ws, opts, NameWriteFile, m{"path": "old.txt", "content": "new\n"})
		wantOutput(t, res, true, "has not read it in this session: read it first")
		if readTestFile(t, filepath.Join(ws.Root(), "old.txt")) != "old\n" {
			t.Error("file changed")
		}
	})
	t.Run("changed on disk since read", func(t *testing.T) {
		read("old.txt")
		writeTestFile(t, filepath.Join(ws.Root(), "old.txt"), "someone else\n")
		wantOutput(t, call(t, ws, opts, NameWriteFile, m{"path": "old.txt", "content": "new\n"}), true, "changed on disk since you read it")
	})
	t.Run("overwrite after read keeps mode", func(t *testing.T) {
		p := filepath.Join(ws.Root(), "old.txt")
		must(t, os.Chmod(p, 0o755))
		read("old.txt")
		res := call(t, ws, opts, NameWriteFile, m{"path": "old.txt", "content": "new\n"})
		wantOutput(t, res, false, "updated old.txt", "-someone else", "+new")
		fi, _ := os.Stat(p)
		if fi.Mode().Perm() != 0o755 {
			t.Errorf("mode = %v", fi.Mode())
		}
		if res.Diff == "" || !res.Changes[0].Existed || string(res.Changes[0].Before) != "someone else\n" {
			t.Errorf("result = %+v", res)
		}
	})
	t.Run("crlf kept", func(t *testing.T) {
		read("crlf.txt")
		call(t, ws, opts, NameWriteFile, m{"path": "crlf.txt", "content": "x\ny\n"})
		if got := readTestFile(t, filepath.Join(ws.Root(), "crlf.txt")); got != "x\r\ny\r\n" {
			t.Errorf("content = %q", got)
		}
	})
	bad := []struct{ name, path, want string }{
		{"git dir", ".git/config", "inside a .git directory"},
		{"directory", "dir", "is a directory"},
		{"empty path", "", "path is required"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			wantOutput(t, call(t, ws, opts, NameWriteFile, m{"path": tc.path, "content": "x"}), true, tc.want)
		})
	}
	t.Run("no temp files left", func(t *testing.T) {
		ents, _ := os.ReadDir(ws.Root())
		for _, e := range ents {
			if strings.Contains(e.Name(), ".keel-") {
				t.Errorf("temp file left: %s", e.Name())
			}
		}
	})
}
