package tools

import (
	"strings"
	"testing"

	ignore "github.com/sabhiram/go-gitignore"
)

// TestGitRulesAgree checks the quick rejection never changes
// go-gitignore's answer, over lines of every kind and many paths.
func TestGitRulesAgree(t *testing.T) {
	files := []string{
		"*.log\nbuild/\n/top-only.txt\ntmp_*\n# comment\n\n",
		"node_modules\n!keep.log\n*.log\n",
		"**/gen/**\na/**/b\n/**/x.go\n",
		"*\n!*.go\n",
		"foo[0-9].txt\nwhat?\n\\#hash\n\\!bang\n",
		"  spaced  \r\nvendor/\r\n*.pb.go\n.env\n",
		"dist\ncoverage/\n*.min.*\n/.cache/\n",
	}
	paths := []string{
		"a.log", "x/a.log", "build/", "x/build/", "build", "top-only.txt", "d/top-only.txt", "tmp_x.go",
		"x/tmp_y/", "node_modules/", "a/node_modules/b.js", "keep.log", "gen/x.go", "a/gen/b/c.go",
		"a/b", "a/x/y/b", "x.go", "q/x.go", "foo1.txt", "whatX", "what?", "#hash", "!bang", "spaced",
		"vendor/", "v/vendor/", "api.pb.go", ".env", "x/.env", "dist/", "coverage/", "app.min.js", ".cache/",
		"src/.cache/", "main.go", "", "/",
	}
	for _, content := range files {
		r := newGitRules(content)
		g := ignore.CompileIgnoreLines(strings.Split(content, "\n")...)
		for _, p := range paths {
			if got, want := r.matches(p), g.MatchesPath(p); got != want {
				t.Errorf("rules %q, path %q: quick %v, go-gitignore %v", content, p, got, want)
			}
		}
	}
}

func TestIgnorePiece(t *testing.T) {
	tests := []struct {
		line  string
		piece string
		ok    bool
	}{
		{"*.log", ".log", true},
		{"build/", "build", true},
		{"/a/**/bcd", "bcd", true},
		{"# comment", "", true},
		{"!keep.log", "", true},
		{"", "", true},
		{"*", "", false},
		{"**/", "", false},
		{"foo[0-9]", "", false},
		{"what?", "", false},
	}
	for _, tc := range tests {
		if piece, ok := ignorePiece(tc.line); piece != tc.piece || ok != tc.ok {
			t.Errorf("ignorePiece(%q) = %q, %v; want %q, %v", tc.line, piece, ok, tc.piece, tc.ok)
		}
	}
}
