package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// keel log fits the terminal: at 80 columns the prompt shows, cut with
// "…", beside the stop reason and the tokens; at 120 every column shows
// (issue 32 leftovers: at 80 TOKENS to PROMPT were cut off).
func TestLogListFitsTheTerminalInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("Nothing to fix.")))
	home, dir := t.TempDir(), project(t)
	prompt := "look at the failing greeting test and tell me why it fails before changing anything"
	if _, stderr, code := runKeelHome(t, home, srv, dir, "", "-p", prompt); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cases := []struct {
		w, h int
		want []string
	}{
		{80, 24, []string{"STOP", "PROMPT", "TOK", "COST", "completed", "look at the", "…"}},
		{120, 40, []string{"ROUNDS", "TOOLS", "TOKENS", "COST", "STOP", "PROMPT", "completed", "look at the failing greeting test"}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%dx%d", c.w, c.h), func(t *testing.T) {
			tm := startTmuxShell(t, c.w, c.h, tmuxEnv(home, srv), dir, "log")
			screen := tm.waitFor("==keel exited 0==")
			for _, w := range c.want {
				if !strings.Contains(screen, w) {
					t.Errorf("keel log at %d columns lacks %q:\n%s", c.w, w, screen)
				}
			}
		})
	}
}

// keel log show names what allowed each call: the dialog's answer for
// the session, the grant it left for the next call, a rule from config,
// read-only analysis (issue 32 leftovers: the grant's call said "allow
// by rule"). Answered in tmux at 80x24.
func TestLogShowSaysWhoAllowedEachCall(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "write_file", Args: `{"path":"a.txt","content":"a\n"}`}),
		llmtest.ToolRound(llmtest.Call{Name: "write_file", Args: `{"path":"b.txt","content":"b\n"}`}),
		llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"touch c.txt"}`}),
		llmtest.ToolRound(llmtest.Call{Name: "read_file", Args: `{"path":"a.txt"}`}),
		llmtest.TextRound("Wrote a and b."),
	))
	home, dir := t.TempDir(), project(t)
	cfg := filepath.Join(home, "cfg", "keel", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("[permissions]\nallow = [\"run_command:touch *\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startTmuxShell(t, 80, 24, tmuxEnv(home, srv), dir)
	tm.waitFor("Ask keel")
	tm.keys("write them", "Enter")
	tm.waitFor("Allow write_file?", "a.txt")
	tm.keys("s")
	tm.waitFor("Wrote a and b.")
	tm.waitTitle(ui.TitleReady)
	quitSized(tm)
	out, _, code := runKeelHome(t, home, nil, dir, "", "log", "--json")
	var list []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 1 {
		t.Fatalf("keel log --json (exit %d, %v):\n%s", code, err, out)
	}
	show, _, _ := runKeelHome(t, home, nil, dir, "", "log", "show", list[0].ID)
	for _, want := range []string{
		"asked, allowed for the session by the user: write_file: all edits this session",
		"allowed for the session by an earlier answer: write_file: all edits this session",
		"allowed always by a rule in config: run_command:touch *",
		"auto-allowed: read-only",
	} {
		if !strings.Contains(show, want) {
			t.Errorf("keel log show lacks %q:\n%s", want, show)
		}
	}
	if strings.Contains(show, "by rule") {
		t.Errorf("keel log show still says \"by rule\":\n%s", show)
	}
}
