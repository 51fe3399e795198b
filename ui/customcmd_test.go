package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
)

// commandDirs writes a project's and a user's command files.
func commandDirs(t *testing.T, project, user map[string]string) CommandDirs {
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
	d := CommandDirs{Project: filepath.Join(root, "proj", ".keel", "commands"), User: filepath.Join(root, "cfg", "keel", "commands")}
	write(d.Project, project)
	write(d.User, user)
	return d
}

func TestLoadCommands(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("a secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		project, user map[string]string
		want          []string // name: description
		notices       []string // each a substring of one notice, in order
	}{
		{"none", nil, nil, nil, nil},
		{"project and user", map[string]string{"review.md": "# Review the diff\n\nReview $ARGUMENTS."},
			map[string]string{"explain.md": "\n\nExplain $ARGUMENTS simply"},
			[]string{"/explain: Explain $ARGUMENTS simply", "/review: Review the diff"}, nil},
		{"user wins", map[string]string{"fix.md": "project fix"}, map[string]string{"fix.md": "my fix"},
			[]string{"/fix: my fix"}, []string{"/fix: your " /* …/fix.md replaces the project's .keel/commands/fix.md */}},
		{"malformed", map[string]string{"two words.md": "x", "empty.md": " \n", "bin.md": "a\x00b", "ok.md": "fine",
			"notes.txt": "not a command", "leak.md": "symlink:" + outside, "big.md": strings.Repeat("x", maxCommandFile+1)}, nil,
			[]string{"/ok: fine"},
			[]string{"big.md ignored: larger than 64 KiB", "bin.md ignored: not UTF-8", "empty.md ignored: empty",
				"leak.md ignored: cannot be read", "two words.md ignored: a name is letters"}},
		{"user symlink", nil, map[string]string{"mine.md": "symlink:" + outside}, []string{"/mine: a secret"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmds, notices := loadCommands(commandDirs(t, tc.project, tc.user))
			var got []string
			for _, c := range cmds {
				got = append(got, c.name+": "+c.desc)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("commands %q, want %q", got, tc.want)
			}
			if len(notices) != len(tc.notices) {
				t.Fatalf("notices %q, want %d", notices, len(tc.notices))
			}
			for i, n := range tc.notices {
				if !strings.Contains(notices[i], n) {
					t.Errorf("notice %q lacks %q", notices[i], n)
				}
			}
		})
	}
	if cmds, notices := loadCommands(CommandDirs{Project: "/nonexistent/x", User: ""}); len(cmds) != 0 || len(notices) != 0 {
		t.Fatal("a missing directory is no error")
	}
}

func TestCustomCommandExpands(t *testing.T) {
	c := customCommand{name: "/r", body: "Review $ARGUMENTS, then $ARGUMENTS again"}
	if got := c.expand("ui/x.go"); got != "Review ui/x.go, then ui/x.go again" {
		t.Fatal(got)
	}
	c.body = "Summarise the repo\n"
	if got := c.expand("briefly"); got != "Summarise the repo\n\nbriefly" {
		t.Fatalf("%q", got)
	}
	if got := c.expand(""); got != "Summarise the repo\n" {
		t.Fatalf("%q", got)
	}
}

func TestCustomCommandsInTheUI(t *testing.T) {
	dirs := commandDirs(t, map[string]string{"review.md": "# Review the code\nReview $ARGUMENTS carefully.", "help.md": "mine"}, nil)
	m, srv := newLLMModel(t, 160, 48, Options{})
	feed(m, loadCommandsCmd(dirs))
	feed(m, loadCommandsCmd(dirs)) // loaded twice: the clash is still said once per load
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
	if p := sentPrompt(t, srv, cmd); !m.running || p != "# Review the code\nReview ui/model.go carefully." {
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
