package tools

import (
	"path/filepath"
	"testing"
)

// Every allowed decision says who allowed it: read-only, --yolo, the
// rule from config by its text, or the session grant by its description
// (issue 32 leftovers: a grant's calls were recorded as "rule"). Denied
// and asked decisions say nobody.
func TestDecisionSaysWhoAllowed(t *testing.T) {
	ws := newTestWS(t, map[string]string{"src/a.go": "x"})
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	rules := mustPolicy(t, ws, PolicyOptions{Allow: []string{"edit_file", "run_command:go test *", "read_file:" + outside,
		"write_file:" + filepath.Join(outside, "out.txt")}})
	granted := mustPolicy(t, ws, PolicyOptions{})
	for _, call := range []struct {
		tool string
		a    m
	}{{"run_command", m{"command": "make lint"}}, {"write_file", m{"path": "b.go"}}, {"list_dir", m{"path": outside}}} {
		granted.Grant(granted.Decide(call.tool, args(call.a)).Grant)
	}
	yolo := mustPolicy(t, ws, PolicyOptions{Yolo: true})
	cases := []struct {
		name string
		p    *Policy
		tool string
		a    m
		want string
	}{
		{"read in the workspace", rules, "read_file", m{"path": "src/a.go"}, ByReadOnly},
		{"read-only command", rules, "run_command", m{"command": "ls src"}, ByReadOnly},
		{"read-only tool", rules, "grep", m{"pattern": "x"}, ByReadOnly},
		{"edit by a bare rule", rules, "edit_file", m{"path": "src/a.go"}, ByRule + "edit_file"},
		{"command by a rule", rules, "run_command", m{"command": "go test ./..."}, ByRule + "run_command:go test *"},
		{"read outside by a rule", rules, "read_file", m{"path": filepath.Join(outside, "x")}, ByRule + "read_file:" + outside},
		{"write outside by its exact rule", rules, "write_file", m{"path": filepath.Join(outside, "out.txt")},
			ByRule + "write_file:" + filepath.Join(outside, "out.txt")},
		{"command by a grant", granted, "run_command", m{"command": "make lint"}, BySession + "run_command: make lint …"},
		{"read-only and granted", granted, "run_command", m{"command": "ls && make lint"}, BySession + "run_command: make lint …"},
		{"write by a grant", granted, "write_file", m{"path": "c.go"}, BySession + "write_file: all edits this session"},
		{"read outside by a grant", granted, "read_file", m{"path": filepath.Join(outside, "y")},
			BySession + "list_dir: " + outside + " and below, outside the workspace"},
		{"yolo command", yolo, "run_command", m{"command": "make"}, ByYolo},
		{"yolo write", yolo, "write_file", m{"path": "z.go"}, ByYolo},
		{"asked", rules, "write_file", m{"path": "z.go"}, ""},
		{"denied", rules, "write_file", m{"path": ".git/config"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d := c.p.Decide(c.tool, args(c.a)); d.By != c.want {
				t.Errorf("%s %v: by %q (verdict %v), want %q", c.tool, c.a, d.By, d.Verdict, c.want)
			}
		})
	}
}
