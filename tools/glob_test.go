package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestGlob(t *testing.T) {
	ws := newTestWS(t, map[string]string{
		".gitignore":         "vendor/\n",
		"cmd/keel/main.go":   "x",
		"tools/tool.go":      "x",
		"tools/tool_test.go": "x",
		"vendor/dep/dep.go":  "x",
		"docs/readme.md":     "x",
		"a dir/ünï.go":       "x",
	})
	now, old := time.Now(), time.Now().Add(-time.Hour)
	for _, f := range []string{"cmd/keel/main.go", "tools/tool_test.go", "a dir/ünï.go"} {
		must(t, os.Chtimes(filepath.Join(ws.Root(), f), now, now)) // ties sort by name
	}
	must(t, os.Chtimes(filepath.Join(ws.Root(), "tools/tool.go"), old, old))
	tests := []struct {
		name  string
		args  m
		isErr bool
		want  string // exact output lines before the footer
	}{
		{"all go newest first", m{"pattern": "**/*.go"}, false, "a dir/ünï.go\ncmd/keel/main.go\ntools/tool_test.go\ntools/tool.go\n"},
		{"under path", m{"pattern": "*.go", "path": "tools"}, false, "tools/tool_test.go\ntools/tool.go\n"},
		{"braces", m{"pattern": "**/*.{md,txt}"}, false, "docs/readme.md\n"},
		{"absolute pattern", m{"pattern": filepath.Join(ws.Root(), "cmd/**/*.go")}, false, "cmd/keel/main.go\n"},
		{"no match", m{"pattern": "**/*.rs"}, false, "no files match"},
		{"invalid", m{"pattern": "[a"}, true, "invalid glob pattern"},
		{"empty", m{"pattern": ""}, true, "pattern is required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, ws, Options{}, NameGlob, tc.args)
			wantOutput(t, res, tc.isErr, tc.want)
			if strings.Contains(res.Output, "vendor") {
				t.Errorf("ignored vendor/ listed:\n%s", res.Output)
			}
		})
	}
}

func TestGlobCapped(t *testing.T) {
	files := map[string]string{}
	for i := range globMax + 5 {
		files[fmt.Sprintf("f%03d.txt", i)] = ""
	}
	ws := newTestWS(t, files)
	res := call(t, ws, Options{}, NameGlob, m{"pattern": "*.txt"})
	wantOutput(t, res, false, "205 files match; 5 more not shown")
}
