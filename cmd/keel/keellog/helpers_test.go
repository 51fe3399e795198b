package keellog

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
)

// Fixtures for the commands' tests: a known session written through the
// datalog's public API.

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type args = map[string]any

func startTest(t testing.TB, db *datalog.DB, s datalog.Session) string {
	t.Helper()
	if s.Started.IsZero() {
		s.Started = t0
	}
	id, err := db.StartSession(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// round builds a round of one task in which the model called tools.
func round(sid string, seq, task int, calls ...datalog.ToolCall) datalog.RoundRecord {
	rec := datalog.RoundRecord{Round: datalog.Round{SessionID: sid, Seq: seq, TaskSeq: task, FinishReason: "tool_calls",
		TokensIn: 100, TokensOut: 10, Cost: 0.01, Started: t0.Add(time.Duration(seq) * time.Minute),
		Duration: time.Second, FirstToken: 200 * time.Millisecond}}
	asst := llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("round %d", seq)}
	for _, c := range calls {
		asst.ToolCalls = append(asst.ToolCalls, llm.ToolCall{ID: c.CallID, Name: c.Name, Arguments: c.Arguments})
	}
	rec.Messages = append(rec.Messages, asst)
	for _, c := range calls {
		rec.Messages = append(rec.Messages, llm.Message{Role: llm.RoleTool, Content: c.Result, ToolCallID: c.CallID, Name: c.Name})
	}
	rec.ToolCalls = calls
	return rec
}

func tc(id, name string, a any, isErr bool) datalog.ToolCall {
	b, _ := json.Marshal(a)
	return datalog.ToolCall{CallID: id, Name: name, Arguments: string(b), Result: "out " + id, IsError: isErr, Duration: time.Millisecond}
}

func mustWrite(t testing.TB, db *datalog.DB, rec datalog.RoundRecord) {
	t.Helper()
	if err := db.WriteRound(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
}

// writeStatsSession writes a two-task session with known figures.
func writeStatsSession(t *testing.T, db *datalog.DB, project string) string {
	sid := startTest(t, db, datalog.Session{ProjectRoot: project})
	read := func(id string, off int) datalog.ToolCall {
		return tc(id, "read_file", args{"path": "a.go", "offset": off, "limit": 50}, false)
	}
	run := func(id, cmd string, fail bool) datalog.ToolCall {
		return tc(id, "run_command", args{"command": cmd}, fail)
	}
	edit := func(id, path string) datalog.ToolCall { return tc(id, "edit_file", args{"path": path}, false) }
	verified := func(c datalog.ToolCall) datalog.ToolCall { c.Verified = true; return c }
	rounds := []datalog.RoundRecord{
		round(sid, 1, 1, read("r1", 0), read("r2", 50)),
		round(sid, 2, 1, read("r3", 0), run("x1", "ls", false)),
		round(sid, 3, 1, run("x2", "go test ./...", true), run("x3", "go test ./...", true)),
		round(sid, 4, 1, edit("e1", "a.go")),
		round(sid, 5, 1, verified(run("x4", "go   test ./...", false))),
		round(sid, 6, 2, edit("e2", "b.go"), run("x5", "cat b.go", false)),
		round(sid, 7, 2, tc("w1", "write_file", args{"path": "c.go"}, true)),
		round(sid, 8, 2),
	}
	rounds[0].Interventions = []datalog.Intervention{{Kind: "reflection"}}
	rounds[4].Interventions = []datalog.Intervention{{Kind: "reread"}}
	rounds[6].Interventions = []datalog.Intervention{{Kind: "reflection"}}
	for _, r := range rounds {
		mustWrite(t, db, r)
	}
	return sid
}
