package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// TestJobsInTheTUIThroughTmux: a background job started in the TUI shows
// in the status bar ("1 job running") and in /jobs, and quitting keel
// stops it.
func TestJobsInTheTUIThroughTmux(t *testing.T) {
	t.Parallel()
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"echo $$ > server.pid; exec sleep 1000","background":true}`}),
		llmtest.TextRound("The server runs in the background."),
	))
	home, dir := t.TempDir(), project(t)
	tm := startTmux(t, tmuxEnv(home, srv), dir)
	tm.waitFor("Ask keel")
	tm.keys("start the server", "Enter")
	tm.waitFor("Allow run_command?")
	tm.keys("a")
	tm.waitFor("The server runs in the background.", "1 job running")
	tm.keys("/jobs", "Enter")
	tm.waitFor("job 1  running", "sleep 1000")
	data, err := os.ReadFile(filepath.Join(dir, "server.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	quit(t, tm)
	if !processGone(pid) {
		t.Errorf("the job's process %d outlived keel", pid)
	}
}
