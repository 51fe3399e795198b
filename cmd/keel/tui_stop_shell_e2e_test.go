package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// TestCtrlCStopsTheTaskAndShellIsTheUsersInTmux: in the real binary, at
// 80x24 and 120x40, the first ctrl+c while a task runs stops it and keel
// stays; a !command that writes runs at once, as the user's own, with one
// footer; ctrl+c stops a !command that runs; ctrl+c twice on the idle
// prompt still quits.
func TestCtrlCStopsTheTaskAndShellIsTheUsersInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			ctrlCAndShellInTmux(t, sz[0], sz[1])
		})
	}
}

func ctrlCAndShellInTmux(t *testing.T, w, h int) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.Round{Text: "a long answer that never ends", TextChunk: 4, Hang: true, HangAfter: 3}))
	home, dir := t.TempDir(), project(t)
	tm := startTmuxSized(t, w, h, tmuxEnv(home, srv), dir)
	tm.waitFor("Ask keel")
	tm.keys("something slow", "Enter")
	tm.waitFor("a long")
	tm.waitTitle(ui.TitleWorking)
	tm.keys("C-c")
	tm.waitFor("cancelling the task (ctrl+c)", "cancelled")
	tm.waitTitle(ui.TitleReady)
	if s := tm.screen(); strings.Contains(s, "again to quit") || !tm.alive() {
		t.Fatalf("the first ctrl+c while the task ran should only stop it:\n%s", s)
	}

	tm.keys("!touch made.txt && echo made", "Enter")
	s := tm.waitFor("! touch made.txt", "outside the model's permissions", "output goes with your next prompt")
	if strings.Contains(s, "Allow run_command?") || strings.Contains(s, "[exit code") || strings.Count(s, "exit 0 · ") != 1 {
		t.Fatalf("the !command should run unasked with one footer:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Fatalf("the !command did not run in the workspace: %v", err)
	}

	sleep := fmt.Sprintf("sleep %d%d", w, h) // a name no other test's process has
	// The echo's output is a word only the shell makes (the screen shows
	// the line as typed, and temp directory names hold digits like 42).
	tm.keys("!"+sleep+"; echo after-$((6*7))-sleep", "Enter")
	tm.waitFor("! " + sleep)
	waitForProcess(t, sleep)
	tm.keys("C-c")
	s = tm.waitFor("cancelling the !command (ctrl+c)", "[stopped; process group killed]")
	if strings.Contains(s, "again to quit") || strings.Contains(s, "after-42-sleep") {
		t.Fatalf("ctrl+c should stop the running !command, not arm the quit:\n%s", s)
	}
	if procs, _ := exec.Command("pgrep", "-f", sleep).Output(); len(procs) > 0 {
		t.Errorf("the stopped !command still runs: %s", procs)
	}

	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	if !tm.exited(time.Minute) {
		t.Fatalf("keel did not quit on ctrl+c twice:\n%s", tm.screen())
	}
}

// TestASubagentsQuestionNamesItInTmux: a subagent's permission question
// reaches the user labelled with its name; denied, the child writes
// nothing and its card says how it ended.
func TestASubagentsQuestionNamesItInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		if childOf(r) != "" {
			if len(r.Messages) <= 2 {
				return llmtest.ToolRound(llmtest.Call{ID: "call_w", Name: "write_file", Args: `{"path":"notes.md","content":"hi"}`})
			}
			return llmtest.TextRound("I could not write notes.md")
		}
		if n == 0 {
			return llmtest.ToolRound(taskCall("call_t", "write notes.md", `,"tools":["read_file","write_file"]`))
		}
		return llmtest.TextRound("the subagent was refused")
	}})
	home, dir := t.TempDir(), project(t)
	tm := startTmuxSized(t, 80, 24, tmuxEnv(home, srv), dir)
	tm.waitFor("Ask keel")
	tm.keys("delegate the notes", "Enter")
	tm.waitFor("Subagent general asks: allow write_file?", "notes.md")
	tm.keys("d", "Enter")
	tm.waitFor("the subagent was refused", "subagent general · completed")
	tm.waitTitle(ui.TitleReady)
	if _, err := os.Stat(filepath.Join(dir, "notes.md")); err == nil {
		t.Fatal("the subagent wrote after the user denied it")
	}
	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	if !tm.exited(time.Minute) {
		t.Fatalf("keel did not quit:\n%s", tm.screen())
	}
}

// TestNotificationHookRunsWhenKeelAsksInTmux: a permission question in
// the TUI runs the Notification hooks with what keel waits for.
func TestNotificationHookRunsWhenKeelAsksInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "read_file", Args: `{"path":"main.go"}`}),
		llmtest.ToolRound(llmtest.Call{Name: "edit_file", Args: `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { println(1) }"}`}),
		llmtest.TextRound("edited"), llmtest.TextRound("no check applies")))
	home, dir, logs := t.TempDir(), project(t), t.TempDir()
	env := tmuxEnv(home, srv)
	cfg := filepath.Join(home, "cfg", "keel", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("[[hooks.Notification]]\ncommand = %q\n", hookLog(logs, "Notification"))), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startTmux(t, env, dir)
	tm.waitFor("Ask keel")
	tm.keys("edit main", "Enter")
	tm.waitFor("Allow edit_file?")
	tm.waitFor("⚑ Notification hook")
	ins := hookInputs(t, logs, "Notification")
	if len(ins) != 1 || ins[0]["message"] != "keel needs your permission to use edit_file" {
		t.Fatalf("Notification hook inputs = %v", ins)
	}
	tm.keys("d", "Enter")
	tm.waitTitle(ui.TitleReady)
	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	if !tm.exited(time.Minute) {
		t.Fatalf("keel did not quit:\n%s", tm.screen())
	}
	if runs := hookRows(t, home, onlySession(t, home)); fmt.Sprint(runs) != "[Notification 0 ]" {
		t.Errorf("hook_runs = %v, want the Notification run", runs)
	}
}

// TestCtrlCCancelsASubagentInTmux: ctrl+c while a subagent runs a command
// stops the parent, the child and the child's command; the child's card
// says it was cancelled and its tokens are in the status line.
func TestCtrlCCancelsASubagentInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		if childOf(r) != "" {
			return llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"sleep 33"}`})
		}
		return llmtest.ToolRound(taskCall("call_t", "wait a while", `,"tools":["run_command"]`))
	}})
	home, dir := t.TempDir(), project(t)
	tm := startTmux(t, tmuxEnv(home, srv), dir, "--yolo")
	tm.waitFor("Ask keel")
	tm.keys("delegate the wait", "Enter")
	tm.waitFor("subagent general · running run_command")
	waitForProcess(t, "sleep 33")
	tm.keys("C-c")
	tm.waitFor("subagent general · cancelled", "cancelling the task (ctrl+c)")
	tm.waitTitle(ui.TitleReady)
	if procs, _ := exec.Command("pgrep", "-f", "sleep 33").Output(); len(procs) > 0 {
		t.Errorf("the subagent's command outlived the cancel: %s", procs)
	}
	// the parent's round and the child's, at the fake's 100 in / 10 out
	if s := tm.screen(); !strings.Contains(s, "200 in · 20 out") {
		t.Errorf("the status line lacks the child's tokens:\n%s", s)
	}
	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	if !tm.exited(time.Minute) {
		t.Fatalf("keel did not quit:\n%s", tm.screen())
	}
}
