package main

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
)

// TestContinuedSessionAddsToTheTotals runs a six-call session, continues it
// twice with -c through the real binary and SQLite file, and reads keel log
// --json (issue 18 item 4): the totals add up instead of being replaced by
// the last process's own.
func TestContinuedSessionAddsToTheTotals(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	glob := func(p string) llmtest.Call { return llmtest.Call{Name: "glob", Args: `{"pattern":"` + p + `"}`} }
	first := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(glob("*.go"), glob("*.md")),
		llmtest.ToolRound(glob("a*"), glob("b*")),
		llmtest.ToolRound(glob("c*"), glob("d*")),
		llmtest.TextRound("six looks"),
	))
	second := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("nothing more")))
	third := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(glob("e*")), llmtest.TextRound("one more")))
	steps := []struct {
		srv  *llmtest.Server
		args []string
		want datalog.Totals
	}{
		{first, []string{"-p", "look around"}, datalog.Totals{Rounds: 4, ToolCalls: 6, TokensIn: 400, TokensOut: 40}},
		{second, []string{"-c", "-p", "anything else?"}, datalog.Totals{Rounds: 5, ToolCalls: 6, TokensIn: 500, TokensOut: 50}},
		{third, []string{"-c", "-p", "one more look"}, datalog.Totals{Rounds: 7, ToolCalls: 7, TokensIn: 700, TokensOut: 70}},
	}
	for i, st := range steps {
		if _, errOut, code := runKeelHome(t, home, st.srv, dir, "", st.args...); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+1, code, errOut)
		}
		out, errOut, code := runKeelHome(t, home, nil, dir, "", "log", "--json")
		var list []datalog.Session
		if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 1 {
			t.Fatalf("log --json after run %d: exit %d, %v, %s%s", i+1, code, err, out, errOut)
		}
		got := list[0].Totals
		// the cost adds up too: gpt-4.1-mini's list price, $0.000056 a round of 100 in and 10 out
		if wantCost := float64(st.want.Rounds) * 0.000056; math.Abs(got.Cost-wantCost) > 1e-9 {
			t.Errorf("cost after run %d = %v, want %v", i+1, got.Cost, wantCost)
		}
		if got.Cost = 0; got != st.want {
			t.Errorf("totals after run %d = %+v, want %+v", i+1, got, st.want)
		}
	}
}
