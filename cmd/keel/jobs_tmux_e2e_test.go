package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
	pid := jobPid(t, filepath.Join(dir, "server.pid"))
	quit(t, tm)
	if !processGone(pid) {
		t.Errorf("the job's process %d outlived keel", pid)
	}
}

// jobPid waits for the job to write its pid: /jobs lists the job as soon
// as it starts, before its shell has run the echo.
func jobPid(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(path)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
			return pid
		}
	}
	t.Fatalf("the job never wrote its pid to %s", path)
	return 0
}
