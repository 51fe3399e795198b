package datalog

import (
	"context"
	"math"
	"testing"
)

// TestEndTotalsNeverLowerTheRoundSums: a continued session's process ends
// its task with only its own counts; the sums its rounds and the earlier
// process's added stand (issue 18 item 4), and only a larger count raises one.
func TestEndTotalsNeverLowerTheRoundSums(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p", Cwd: "/p", FirstPrompt: "look"})
	mustWrite(t, db, round(sid, 1, 1, tc("a", "glob", nil, false), tc("b", "glob", nil, false)))
	mustWrite(t, db, round(sid, 2, 1))
	if err := db.EndTask(ctx, sid, 2, nil, nil, "completed", Totals{Rounds: 2, ToolCalls: 2, TokensIn: 200, TokensOut: 20}); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, db, round(sid, 3, 2)) // the continued process: one round, no calls
	if err := db.EndTask(ctx, sid, 3, nil, nil, "completed", Totals{Rounds: 4, TokensIn: 100, TokensOut: 900}); err != nil {
		t.Fatal(err)
	}
	d, err := db.LoadSession(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	got := d.Session.Totals
	want := Totals{Rounds: 4, ToolCalls: 2, TokensIn: 300, TokensOut: 900, Cost: got.Cost}
	if got != want || math.Abs(got.Cost-0.03) > 1e-9 {
		t.Errorf("totals = %+v, want %+v (sums kept, larger counts raise them)", got, want)
	}
}
