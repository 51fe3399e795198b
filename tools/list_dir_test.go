package tools

import (
	"fmt"
	"strings"
	"testing"
)

func TestListDir(t *testing.T) {
	ws := newTestWS(t, map[string]string{
		".gitignore":     "build/\n*.log\n",
		"b.go":           "package b\n",
		"a.go":           "package a\n",
		"zdir/x.go":      "x",
		"build/out.bin":  "x",
		"debug.log":      "x",
		"sub/.gitignore": "gen.go\n",
		"sub/gen.go":     "x",
		"sub/keep.go":    "x",
		"emptydir/.keep": "",
	})
	tests := []struct {
		name  string
		path  string
		isErr bool
		want  []string
		not   []string
	}{
		{"root", "", false, []string{"dir   emptydir/\ndir   sub/\ndir   zdir/\nfile  .gitignore", "file  a.go  10 B\nfile  b.go"}, []string{"build", "debug.log", ".git/"}},
		{"nested gitignore", "sub", false, []string{"keep.go"}, []string{"gen.go"}},
		{"a file", "a.go", true, []string{"is a file, not a directory"}, nil},
		{"missing", "nope", true, []string{"directory not found: nope"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, ws, Options{}, NameListDir, m{"path": tc.path})
			wantOutput(t, res, tc.isErr, tc.want...)
			for _, s := range tc.not {
				if strings.Contains(res.Output, s) {
					t.Errorf("output has %q:\n%s", s, res.Output)
				}
			}
		})
	}
}

func TestListDirCapped(t *testing.T) {
	files := map[string]string{}
	for i := range listDirMax + 20 {
		files[fmt.Sprintf("many/f%04d", i)] = ""
	}
	ws := newTestWS(t, files)
	res := call(t, ws, Options{}, NameListDir, m{"path": "many"})
	wantOutput(t, res, false, "520 entries", "20 more entries not shown")
}
