package dialog

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/keys"
	"github.com/keel-dev/keel/ui/theme"
)

// The question names its path or command once: a reason that only
// restates it is left out, one that adds something stays (issue 32
// leftovers: "why it asks: edit_file changes main.go" over "main.go").
func TestQuestionNamesItsSubjectOnce(t *testing.T) {
	cases := []struct {
		name, tool, summary, reason string
		wantReason                  bool
	}{
		{"edit restated", "edit_file", "greet/greet.go", "edit_file changes greet/greet.go", false},
		{"edit with ./", "write_file", "./greet/greet.go", "write_file changes greet/greet.go", false},
		{"edit by absolute path", "edit_file", "/home/u/proj/greet/greet.go", "edit_file changes greet/greet.go", false},
		{"command restated", "run_command", "go vet ./...", "runs go vet ./...", false},
		{"protected file", "edit_file", "AGENTS.md", "edit_file changes keel's own configuration or instructions: AGENTS.md", true},
		{"part of a command", "run_command", "sleep 5 && go vet ./...", "runs go vet ./...", true},
		{"destructive", "run_command", "rm -rf build", "destructive: deletes recursively: rm -rf build", true},
		{"symlinked elsewhere", "edit_file", "link/a.go", "edit_file changes real/a.go", true},
		{"another tool's words", "write_file", "b.go", "edit_file changes a.go", true},
		{"read outside", "read_file", "/etc/hosts", "reads outside the workspace: /etc/hosts", true},
		{"list outside, relative", "list_dir", "../other", "reads outside the workspace: /home/u/other", true},
		{"protected, by absolute path", "write_file", "/home/u/proj/AGENTS.md", "write_file changes keel's own configuration or instructions: AGENTS.md", true},
		{"a command ending like a path", "run_command", "cat go.mod", "keel runs no command without asking here: go.mod", true},
	}
	st := theme.New(true, false)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBridge()
			d := New(keys.Default())
			r, _ := ask(t, t.Context(), b, agent.PermissionRequest{Tool: c.tool, Summary: c.summary, Reason: c.reason})
			d.Push(r, time.Time{}, time.Time{})
			v := ansi.Strip(d.View(st, 80, 24))
			if got := strings.Contains(v, "why it asks"); got != c.wantReason {
				t.Fatalf("reason shown %v, want %v:\n%s", got, c.wantReason, v)
			}
			subject := filepath.Base(c.summary)
			if c.tool == "run_command" || c.name == "symlinked elsewhere" {
				subject = c.summary
			}
			if n := strings.Count(v, subject); n != 1 {
				t.Fatalf("the subject %q shows %d times, want once:\n%s", subject, n, v)
			}
		})
	}
}

// What "s" covers says "this path" for the path the question shows, and
// keeps a command's grant and any other path as they are.
func TestGrantSaysThisPath(t *testing.T) {
	cases := []struct{ grant, reason, body, want string }{
		{"read_file: /etc/hosts and below, outside the workspace", "reads outside the workspace: /etc/hosts", "/etc/hosts",
			"read_file: this path and below, outside the workspace"},
		{"list_dir: /home/u/other and below, outside the workspace", "reads outside the workspace: /home/u/other", "../other",
			"list_dir: this path and below, outside the workspace"},
		{"write_file: /tmp/out.txt", "", "/tmp/out.txt", "write_file: this path"},
		{"read_file: /etc/hosts.d and below, outside the workspace", "reads outside the workspace: /etc/hosts", "/etc/hosts",
			"read_file: /etc/hosts.d and below, outside the workspace"},
		{"run_command: go vet …", "runs go vet ./...", "sleep 5 && go vet ./...", "run_command: go vet …"},
		{"edit_file: all edits this session", "", "main.go", "edit_file: all edits this session"},
	}
	for _, c := range cases {
		shown, showBody := splitReason(c.reason, "read_file", c.body)
		if got := grantText(c.grant, shown, c.body, showBody); got != c.want {
			t.Errorf("grantText(%q) = %q, want %q", c.grant, got, c.want)
		}
	}
	st := theme.New(true, false)
	b := NewBridge()
	d := New(keys.Default())
	r, _ := ask(t, t.Context(), b, agent.PermissionRequest{Tool: "read_file", Summary: "/etc/hosts",
		Reason: "reads outside the workspace: /etc/hosts", Grant: "read_file: /etc/hosts and below, outside the workspace"})
	d.Push(r, time.Time{}, time.Time{})
	if v := ansi.Strip(d.View(st, 80, 24)); strings.Count(v, "/etc/hosts") != 1 || !strings.Contains(v, "s covers: read_file: this path and below") {
		t.Fatalf("the path should show once:\n%s", v)
	}
}
