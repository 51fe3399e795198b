package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/customcmd"
)

// commandDirs writes a project's and a user's command files.
func commandDirs(t *testing.T, project, user map[string]string) customcmd.Dirs {
	t.Helper()
	write := func(dir string, files map[string]string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, content := range files {
			p := filepath.Join(dir, name)
			var err error
			if target, ok := strings.CutPrefix(content, "symlink:"); ok {
				err = os.Symlink(target, p)
			} else {
				err = os.WriteFile(p, []byte(content), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	root := t.TempDir()
	d := customcmd.Dirs{Project: filepath.Join(root, "proj", ".keel", "commands"), User: filepath.Join(root, "cfg", "keel", "commands")}
	write(d.Project, project)
	write(d.User, user)
	return d
}

func TestCustomCommandsInTheUI(t *testing.T) {
	dirs := commandDirs(t, map[string]string{"review.md": "# Review the code\nReview $ARGUMENTS carefully.", "help.md": "mine"}, nil)
	m, srv := newLLMModel(t, 160, 48, Options{})
	feed(m, customcmd.Load(dirs))
	feed(m, customcmd.Load(dirs)) // loaded twice: the clash is still said once per load
	if n := strings.Count(plain(m), "/help: the built-in command wins over .keel/commands/help.md"); n != 2 {
		t.Fatalf("clash notices: %d\n%s", n, plain(m))
	}
	typeText(m, "/rev")
	send(m, press("tab"))
	if m.input.Value() != "/review " {
		t.Fatalf("tab: %q", m.input.Value())
	}
	typeText(m, "ui/model.go")
	_, cmd := m.Update(press("enter"))
	if p := sentPrompt(t, srv, cmd); !m.running || p != "Review ui/model.go carefully." { // the # line is only the description
		t.Fatalf("sent %q", p)
	}
	if s := plain(m); !strings.Contains(s, "› /review ui/model.go") {
		t.Fatalf("the prompt shows as typed:\n%s", s)
	}
	send(m, events(agent.TaskStopped{Reason: agent.StopCompleted}), press("?"))
	if s := plain(m); !strings.Contains(s, "/review [ARGS]") || !strings.Contains(s, "Review the code") {
		t.Fatalf("? should list the custom command:\n%s", s)
	}
	send(m, press("x"))
	typeText(m, "/")
	send(m, press("tab"), press("up")) // up wraps to the last: the custom ones come after the built-ins
	if s := plain(m); !strings.Contains(s, "› /review  Review the code") {
		t.Fatalf("completion lacks the custom command with its description:\n%s", s)
	}
}
