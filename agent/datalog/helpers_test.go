package datalog

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// openTest opens a fresh datalog in t.TempDir and closes it at cleanup.
func openTest(t testing.TB, opts Options) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "keel", "keel.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func startTest(t testing.TB, db *DB, s Session) string {
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
func round(sid string, seq, task int, calls ...ToolCall) RoundRecord {
	rec := RoundRecord{Round: Round{SessionID: sid, Seq: seq, TaskSeq: task, FinishReason: "tool_calls",
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

func tc(id, name string, args any, isErr bool) ToolCall {
	b, _ := json.Marshal(args)
	return ToolCall{CallID: id, Name: name, Arguments: string(b), Result: "out " + id, IsError: isErr, Duration: time.Millisecond}
}

func mustWrite(t testing.TB, db *DB, rec RoundRecord) {
	t.Helper()
	if err := db.WriteRound(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
}

// markUndone records an undo of the changes ids of session sid, as keel
// undo does: begun, then finished with all of them done.
func markUndone(t testing.TB, db *DB, sid string, ids []int64) {
	t.Helper()
	ctx := context.Background()
	run, err := db.BeginUndo(ctx, sid, 1, ids)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.FinishUndo(ctx, run, ids); err != nil {
		t.Fatal(err)
	}
}
