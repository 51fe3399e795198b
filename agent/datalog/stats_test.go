package datalog

import (
	"context"
	"reflect"
	"testing"
	"time"
)

type args = map[string]any

// writeStatsSession writes a two-task session with known figures.
func writeStatsSession(t *testing.T, db *DB, project string) string {
	sid := startTest(t, db, Session{ProjectRoot: project})
	read := func(id string, off int) ToolCall {
		return tc(id, "read_file", args{"path": "a.go", "offset": off, "limit": 50}, false)
	}
	run := func(id, cmd string, fail bool) ToolCall { return tc(id, "run_command", args{"command": cmd}, fail) }
	edit := func(id, path string) ToolCall { return tc(id, "edit_file", args{"path": path}, false) }
	verified := func(c ToolCall) ToolCall { c.Verified = true; return c }
	rounds := []RoundRecord{
		round(sid, 1, 1, read("r1", 0), read("r2", 50)),         // forward paging: no re-read
		round(sid, 2, 1, read("r3", 0), run("x1", "ls", false)), // re-read of 0..50
		round(sid, 3, 1, run("x2", "go test ./...", true), run("x3", "go test ./...", true)),
		round(sid, 4, 1, edit("e1", "a.go")),
		round(sid, 5, 1, verified(run("x4", "go   test ./...", false))), // verifies e1 (the agent said so)
		round(sid, 6, 2, edit("e2", "b.go"), run("x5", "cat b.go", false)),
		round(sid, 7, 2, tc("w1", "write_file", args{"path": "c.go"}, true)), // failed edit: not counted
		round(sid, 8, 2),
	}
	rounds[0].Interventions = []Intervention{{Kind: "reflection"}} // edit 3 rounds later (round 4): followed
	rounds[4].Interventions = []Intervention{{Kind: "reread"}}     // round 6 edits: followed
	rounds[6].Interventions = []Intervention{{Kind: "reflection"}} // nothing after: not followed
	for _, r := range rounds {
		mustWrite(t, db, r)
	}
	return sid
}

func TestStatsOnKnownInputs(t *testing.T) {
	db := openTest(t, Options{})
	sid := writeStatsSession(t, db, "/p")
	writeStatsSession(t, db, "/other")
	st, err := db.Stats(context.Background(), StatsScope{SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	// round n starts at t0+n min and lasts 1s: e1 is asked for at the
	// end of round 4, 3m1s after round 1 started.
	wantTasks := []TaskStats{
		{SessionID: sid, Task: 1, Rounds: 5, ToolCalls: 8, Edits: 1, FirstEdit: 3*time.Minute + time.Second,
			TokensIn: 500, TokensOut: 50, Cost: 0.05},
		{SessionID: sid, Task: 2, Rounds: 3, ToolCalls: 3, Edits: 1, FirstEdit: time.Second, TokensIn: 300, TokensOut: 30, Cost: 0.03},
	}
	for i := range st.Tasks {
		st.Tasks[i].Cost = float64(int(st.Tasks[i].Cost*100+0.5)) / 100
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"sessions", st.Sessions, 1},
		{"tasks", st.Tasks, wantTasks},
		{"rereads", st.ReReads, []ReRead{{SessionID: sid, Task: 1, Path: "a.go", Offset: 0, Limit: 50, Reads: 2}}},
		{"repeated", st.RepeatedCommands, []RepeatedCommand{{SessionID: sid, Task: 1, Command: "go test ./...", Runs: 2}}},
		{"failed", st.FailedByTool, []ToolCount{{"run_command", 2}, {"write_file", 1}}},
		{"unverified", st.UnverifiedEdits, []UnverifiedEdit{{SessionID: sid, Task: 2, Round: 6, Tool: "edit_file", Path: "b.go"}}},
		{"interventions", st.Interventions, []InterventionStats{{Kind: "reflection", Fired: 2, FollowedByEdit: 1}, {Kind: "reread", Fired: 1, FollowedByEdit: 1}}},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %+v\nwant %+v", c.name, c.got, c.want)
		}
	}
	proj, err := db.Stats(context.Background(), StatsScope{Project: "/other"})
	if err != nil || proj.Sessions != 1 || len(proj.Tasks) != 2 || proj.Tasks[0].SessionID == sid {
		t.Errorf("project stats = %+v, %v; want the other session only", proj, err)
	}
}
