package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// TestCtrlCStopsTheTaskAndShellIsTheUsersInTmux: in the real binary, the
// first ctrl+c while a task runs stops it and keel stays; a !command that
// writes runs at once, as the user's own, with one footer; ctrl+c twice on
// the idle prompt still quits.
func TestCtrlCStopsTheTaskAndShellIsTheUsersInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.Round{Text: "a long answer that never ends", TextChunk: 4, Hang: true, HangAfter: 3}))
	home, dir := t.TempDir(), project(t)
	tm := startTmux(t, tmuxEnv(home, srv), dir)
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

	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	if !tm.exited(10 * time.Second) {
		t.Fatalf("keel did not quit on ctrl+c twice:\n%s", tm.screen())
	}
}
