package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/shellcmd"
)

// newShellModel is a model whose !commands go through a real workspace,
// the real run_command and the real permission policy.
func newShellModel(t *testing.T) (*Model, string, *llmtest.Server) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	set := tools.New(ws, tools.Options{Env: []string{"PATH=" + os.Getenv("PATH")}})
	pol, err := tools.NewPolicy(ws, tools.PolicyOptions{Tools: set})
	if err != nil {
		t.Fatal(err)
	}
	var run tools.Tool
	for _, tl := range set {
		if tl.Name() == tools.NameRunCommand {
			run = tl
		}
	}
	m, srv := newLLMModel(t, 100, 30, Options{Shell: &shellcmd.Shell{Tool: run, Permissions: pol, OutputCap: 1 << 10}})
	return m, ws.Root(), srv
}

// shellMsgs runs a !command's commands on goroutines, as Bubble Tea does,
// and delivers the editor's messages on the returned channel.
func shellMsgs(cmd tea.Cmd) <-chan tea.Msg {
	out := make(chan tea.Msg, 8)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		go func() {
			switch msg := c().(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					if c != nil {
						run(c)
					}
				}
			case shellcmd.DoneMsg:
				out <- msg
			}
		}()
	}
	if cmd != nil {
		run(cmd)
	}
	return out
}

func awaitShell(t *testing.T, ch <-chan tea.Msg) tea.Msg {
	t.Helper()
	select {
	case msg := <-ch:
		return msg
	case <-time.After(30 * time.Second):
		t.Fatal("the !command never finished")
	}
	return nil
}

func TestShellCommandRunsAndGoesWithTheNextPrompt(t *testing.T) {
	m, _, srv := newShellModel(t)
	typeText(m, "!echo hello-from-shell")
	_, cmd := m.Update(press("enter"))
	send(m, awaitShell(t, shellMsgs(cmd)))
	s := plain(m)
	if !strings.Contains(s, "✓ ! echo hello-from-shell") || !strings.Contains(s, "hello-from-shell") || !strings.Contains(s, "output goes with your next prompt") {
		t.Fatalf("the command and its output should show:\n%s", s)
	}
	if m.running {
		t.Fatal("a !command is not a task")
	}
	typeText(m, "what did it print?")
	_, cmd = m.Update(press("enter"))
	p := sentPrompt(t, srv, cmd)
	if !strings.Contains(p, "<user_command_output command=\"echo hello-from-shell\" exit_code=\"0\">\nhello-from-shell\n") ||
		!strings.HasSuffix(p, "\n\nwhat did it print?") || !strings.Contains(plain(m), "output of !echo hello-from-shell") {
		t.Fatalf("the next prompt should carry the output: %q\n%s", p, plain(m))
	}
	typeText(m, "and again")
	send(m, press("enter"))
	if e := m.queue[len(m.queue)-1]; strings.Contains(e.prompt, "hello-from-shell") {
		t.Fatal("the output goes with one prompt only")
	}
}

// TestShellCommandAsksLikeTheModel: a command the policy asks about shows
// the permission dialog; allowed, it runs; denied, it does not.
func TestShellCommandAsksLikeTheModel(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		ran  bool
		want string
	}{
		{[]string{"a"}, true, "✓ ! touch made.txt"},
		{[]string{"d", "enter"}, false, "⊘ ! touch made.txt"},
	} {
		m, root, srv := newShellModel(t)
		typeText(m, "!touch made.txt")
		_, cmd := m.Update(press("enter"))
		done := shellMsgs(cmd)
		deliver(t, m) // the Bridge's question, as the drain delivers it
		if s := plain(m); !strings.Contains(s, "Allow run_command?") || !strings.Contains(s, "touch made.txt") {
			t.Fatalf("the policy's question should show:\n%s", s)
		}
		for _, k := range tc.keys {
			send(m, press(k))
		}
		send(m, awaitShell(t, done))
		_, err := os.Stat(filepath.Join(root, "made.txt"))
		if (err == nil) != tc.ran || !strings.Contains(plain(m), tc.want) {
			t.Fatalf("keys %v: file made %v, screen:\n%s", tc.keys, err == nil, plain(m))
		}
		typeText(m, "next")
		_, cmd = m.Update(press("enter"))
		if p := sentPrompt(t, srv, cmd); strings.Contains(p, "user_command_output") != tc.ran {
			t.Fatalf("keys %v: prompt %q", tc.keys, p)
		}
	}
}

func TestShellWithoutASessionShell(t *testing.T) {
	m := newTestModel(t, 80, 24)
	typeText(m, "!ls")
	if _, cmd := m.Update(press("enter")); cmd != nil || !strings.Contains(plain(m), "!commands are not available") {
		t.Fatalf("no Shell: %s", plain(m))
	}
}
