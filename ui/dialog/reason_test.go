package dialog

import (
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
		{"destructive", "run_command", "rm -rf build", "destructive: rm -rf build", true},
		{"symlinked elsewhere", "edit_file", "link/a.go", "edit_file changes real/a.go", true},
		{"another tool's words", "write_file", "a.go", "edit_file changes a.go", true},
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
			if !strings.Contains(v, c.summary) {
				t.Fatalf("the subject %q is missing:\n%s", c.summary, v)
			}
		})
	}
}
