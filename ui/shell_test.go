package ui

import (
	"context"
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

// newShellModel is a model whose !commands run for real in a workspace
// (tools.RunUserCommand).
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
	opts := tools.Options{Env: []string{"PATH=" + os.Getenv("PATH"), "OPENAI_API_KEY=sk-secret-shell"}, SecretEnvNames: []string{"OPENAI_API_KEY"}}
	run := func(ctx context.Context, command string) tools.Result {
		return tools.RunUserCommand(ctx, ws, opts, command)
	}
	m, srv := newLLMModel(t, 100, 30, Options{Shell: &shellcmd.Shell{Run: run, OutputCap: 1 << 10}})
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

// TestShellCommandRunsAsTheUsersOwn: a command the model would be asked
// about (it writes a file) runs without a question, in the workspace, with
// a note that it ran outside the model's permissions and one footer; keel's
// secrets are not in its environment.
func TestShellCommandRunsAsTheUsersOwn(t *testing.T) {
	m, root, srv := newShellModel(t)
	typeText(m, "!touch made.txt && echo key=${OPENAI_API_KEY:-none}")
	_, cmd := m.Update(press("enter"))
	send(m, awaitShell(t, shellMsgs(cmd)))
	if _, err := os.Stat(filepath.Join(root, "made.txt")); err != nil {
		t.Fatalf("the command did not run in the workspace: %v", err)
	}
	s := plain(m)
	if strings.Contains(s, "Allow run_command?") || !strings.Contains(s, "✓ ! touch made.txt") || !strings.Contains(s, "key=none") {
		t.Fatalf("the command should run unasked, without keel's key:\n%s", s)
	}
	if !strings.Contains(s, "outside the model's permissions") {
		t.Fatalf("no note says the command ran outside the model's permissions:\n%s", s)
	}
	if strings.Contains(s, "[exit code") || strings.Count(s, "exit 0") != 1 {
		t.Fatalf("want one footer (exit 0 · duration):\n%s", s)
	}
	typeText(m, "next")
	_, cmd = m.Update(press("enter"))
	if p := sentPrompt(t, srv, cmd); !strings.Contains(p, "<user_command_output command=\"touch made.txt && echo key=${OPENAI_API_KEY:-none}\" exit_code=\"0\">\nkey=none") {
		t.Fatalf("prompt %q", p)
	}
}

func TestShellWithoutASessionShell(t *testing.T) {
	m := newTestModel(t, 80, 24)
	typeText(m, "!ls")
	if _, cmd := m.Update(press("enter")); cmd != nil || !strings.Contains(plain(m), "!commands are not available") {
		t.Fatalf("no Shell: %s", plain(m))
	}
}

// TestAKeyStopsARunningShellCommand: esc, and ctrl+c as for a task, stop
// a !command that runs; ctrl+c does not arm the quit instead.
func TestAKeyStopsARunningShellCommand(t *testing.T) {
	for _, k := range []string{"esc", "ctrl+c"} {
		t.Run(k, func(t *testing.T) {
			m, _, _ := newShellModel(t)
			typeText(m, "!sleep 30; echo $((6*7))")
			_, cmd := m.Update(press("enter"))
			done := shellMsgs(cmd)
			send(m, press(k))
			msg := awaitShell(t, done) // within the deadline, not after 30s
			send(m, msg)
			s := plain(m)
			if !strings.Contains(s, "cancelling the !command ("+k+")") || strings.Contains(s, "42") || m.quitArmed {
				t.Fatalf("%s should stop the !command (quit armed: %v):\n%s", k, m.quitArmed, s)
			}
		})
	}
}
