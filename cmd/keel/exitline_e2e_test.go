package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// TestTUIExitLineInTmux quits the TUI after one task and reads what it
// left in the terminal: the session id and how to resume it (issue 18).
func TestTUIExitLineInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("Hello there.")))
	home, dir := t.TempDir(), project(t)
	env := tmuxEnv(home, srv)
	tm := startTmuxThenWait(t, env, dir)
	tm.waitFor("Ask keel")
	tm.keys("say hello", "Enter")
	tm.waitFor("Hello there.")
	tm.waitTitle(ui.TitleReady)
	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	screen := tm.waitFor("==keel exited 0==")

	out, errOut, code := runKeelHome(t, home, nil, dir, "", "log", "--json")
	var list []datalog.Session
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 1 {
		t.Fatalf("keel log: exit %d, %v, %s%s", code, err, out, errOut)
	}
	want := "keel: session " + datalog.ShortID(list[0].ID) + " saved; resume it with keel -c (or keel --resume " + datalog.ShortID(list[0].ID) + ")"
	if !strings.Contains(screen, want) {
		t.Errorf("the terminal lacks %q:\n%s", want, screen)
	}
}

// startTmuxThenWait runs keel in tmux from a shell that prints its exit
// status and stays, so what keel left in the terminal can be read (a dead
// pane may lose keel's last output).
func startTmuxThenWait(t *testing.T, env []string, dir string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (CI installs it)")
	}
	tm := &tmux{t: t, session: fmt.Sprintf("keel-exit-%d", time.Now().UnixNano())}
	shell := "cd " + dir + " && env " + strings.Join(env, " ") + " " + keelBinary(t) + "; echo ==keel exited $?==; sleep 120"
	tm.run("new-session", "-d", "-s", tm.session, "-x", "120", "-y", "40", shell)
	t.Cleanup(func() { _ = exec.Command("tmux", "kill-session", "-t", tm.session).Run() })
	return tm
}

// TestHeadlessPrintsNoExitLineWhenPiped: keel -p's stdout is the answer
// and its stderr, when not a terminal, carries no resume hint.
func TestHeadlessPrintsNoExitLineWhenPiped(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("just this")))
	out, errOut, code := runKeel(t, srv, project(t), "", "-p", "hi")
	if code != 0 || out != "just this\n" || strings.Contains(errOut, "resume") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A TUI opened and quit before any prompt leaves no session behind, so
// keel -c continues the session that was asked something (it resumed the
// empty one, and the model lost the conversation).
func TestTUIWithoutPromptLeavesNoSession(t *testing.T) {
	t.Parallel()
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("First answer."), llmtest.TextRound("Second answer.")))
	home, dir := t.TempDir(), project(t)
	env := tmuxEnv(home, srv)
	if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "the first task"); code != 0 {
		t.Fatalf("keel -p: exit %d: %s", code, errOut)
	}
	tm := startTmuxThenWait(t, env, dir)
	tm.waitFor("Ask keel")
	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	if screen := tm.waitFor("==keel exited 0=="); strings.Contains(screen, "saved; resume") {
		t.Errorf("an exit line for a session without a prompt:\n%s", screen)
	}
	out, errOut, code := runKeelHome(t, home, nil, dir, "", "log", "--json")
	var list []datalog.Session
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 1 {
		t.Fatalf("keel log after an empty TUI: exit %d, %v, %d sessions, want 1: %s%s", code, err, len(list), out, errOut)
	}
	if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-c", "-p", "the second task"); code != 0 {
		t.Fatalf("keel -c -p: exit %d: %s", code, errOut)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(string(last.Body), "the first task") {
		t.Errorf("keel -c did not continue the first session: its request lacks the first task")
	}
}
