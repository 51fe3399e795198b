package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// tmuxConfig writes the user configuration of a tmux test's home.
func tmuxConfig(t *testing.T, home, doc string) {
	t.Helper()
	cfg := filepath.Join(home, "cfg", "keel", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitMCPReady asks /mcp until it shows the server ready (it starts in
// the background); the deadline only keeps a broken run from hanging.
func waitMCPReady(tm *tmux, name string) {
	tm.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		tm.keys("/mcp", "Enter")
		time.Sleep(300 * time.Millisecond)
		if strings.Contains(tm.screen(), name+": ready") {
			return
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("%s never became ready:\n%s", name, tm.screen())
		}
	}
}

// An MCP server's prompt is a slash command in the TUI: completed after
// /, run with its arguments, its text sent to the model.
func TestTUIMCPPromptInTmux(t *testing.T) {
	t.Parallel()
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("Reviewed.")))
	home, dir := t.TempDir(), project(t)
	tmuxConfig(t, home, testServerConfig(t))
	tm := startTmux(t, tmuxEnv(home, srv), dir)
	tm.waitFor("Ask keel")
	waitMCPReady(tm, "test")
	tm.keys("/test:r", "Tab")
	tm.waitFor("› /test:review")
	tm.keys("main.go focus=errors", "Enter")
	tm.waitFor("Reviewed.")
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests:\n%s", len(reqs), tm.screen())
	}
	if last := reqs[0].Messages[len(reqs[0].Messages)-1]; last.Content != "Review main.go for errors" {
		t.Errorf("the prompt sent: %q", last.Content)
	}
}

// The npm reference server's long-running tool shows its progress live in
// the call's row.
func TestTUIMCPProgressInTmux(t *testing.T) {
	t.Parallel()
	ref := everythingServer(t)
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: ref.longTool, Args: `{"duration":6,"steps":3}`}),
		llmtest.TextRound("Finished."),
	))
	home, dir := t.TempDir(), project(t)
	q := make([]string, len(ref.argv)-1)
	for i, a := range ref.argv[1:] {
		q[i] = strconv.Quote(a)
	}
	tmuxConfig(t, home, "yolo = true\n[mcp.servers.ref]\ncommand = "+strconv.Quote(ref.argv[0])+"\nargs = ["+strings.Join(q, ", ")+"]\nstartup_timeout = \"90s\"\n")
	tm := startTmux(t, tmuxEnv(home, srv), dir)
	tm.waitFor("Ask keel")
	waitMCPReady(tm, "ref")
	tm.keys("run the long operation", "Enter")
	s := tm.waitFor("▰", "/3 (")
	t.Logf("while the tool runs:\n%s", s)
	tm.waitFor("Finished.")
	tm.waitTitle(ui.TitleReady)
	if s := tm.screen(); strings.Contains(s, "/3 (") {
		t.Errorf("the finished call's row still shows progress:\n%s", s)
	}
}
