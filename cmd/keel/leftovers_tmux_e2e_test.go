package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
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
