package datalog

import (
	"context"
	"testing"

	"github.com/keel-dev/keel/agent/llm"
)

// A call recorded before it ran and never finished is shown by keel log
// show and given an "outcome unknown" result on resume; the round's
// commit replaces it.
func TestIntentsOfUnfinishedCalls(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	mustWrite(t, db, round(sid, 1, 1, tc("c1", "read_file", map[string]string{"path": "a"}, false)))
	for _, id := range []string{"c2", "c3"} {
		in := Intent{SessionID: sid, Round: 2, CallID: id, Name: "run_command", Arguments: `{"command":"make ` + id + `"}`, Started: t0}
		if err := db.WriteIntent(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	hist, err := db.LoadHistory(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	tail := hist[len(hist)-3:]
	if tail[0].Role != llm.RoleAssistant || len(tail[0].ToolCalls) != 2 || tail[0].ToolCalls[1].Arguments != `{"command":"make c3"}` {
		t.Fatalf("the resumed history does not repeat the unfinished calls: %+v", tail)
	}
	for _, m := range tail[1:] {
		if m.Role != llm.RoleTool || m.Content != UnknownOutcome {
			t.Errorf("an unfinished call's result is %+v", m)
		}
	}
	d, err := db.LoadSession(ctx, sid)
	if err != nil || len(d.Unfinished) != 2 || d.Unfinished[1].Arguments != `{"command":"make c3"}` {
		t.Fatalf("LoadSession's unfinished calls: %+v %v", d.Unfinished, err)
	}
	mustWrite(t, db, round(sid, 2, 1, tc("c2", "run_command", map[string]string{"command": "make c2"}, false)))
	if left, _ := db.Intents(ctx, sid); len(left) != 0 {
		t.Errorf("the round's commit left its intents: %+v", left)
	}
}

// EndTask commits the transitions no round carried, and the stop reason.
func TestEndTaskWritesTheLastTransition(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	mustWrite(t, db, round(sid, 1, 1))
	last := []StateTransition{{From: "observing", To: "halted", Detail: "loop_detected", At: t0}}
	if err := db.EndTask(ctx, sid, 1, last, nil, "loop_detected", Totals{Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	d, err := db.LoadSession(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	tr := d.Rounds[0].Transitions
	if len(tr) != 1 || tr[0].To != "halted" || d.Session.StopReason != "loop_detected" {
		t.Errorf("transitions %+v, stop reason %q", tr, d.Session.StopReason)
	}
}
