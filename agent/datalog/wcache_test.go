package datalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/keel-dev/keel/agent/llm"
)

// docCount counts a session's recall documents of kind with text.
func docCount(t *testing.T, db *DB, sid, kind, text string) int {
	t.Helper()
	var n int
	err := db.read.QueryRow(`SELECT count(*) FROM recall_docs WHERE session_id = ? AND kind = ? AND text = ?`,
		sid, kind, text).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWriterCacheFollowsOtherWriters: the writer knows which recall texts
// and intents a session holds without asking the database each round;
// what another handle commits (a second keel, a resumed session) must
// still count.
func TestWriterCacheFollowsOtherWriters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "keel.db")
	a, b := reopen(t, path), reopen(t, path) // two handles, as two keel processes
	sid := startTest(t, a, Session{ProjectRoot: "/p"})
	call := tc("c1", "read_file", map[string]string{"path": "main.go"}, false)
	summary := callsSummary([]ToolCall{call})

	mustWrite(t, a, round(sid, 1, 1, call))
	mustWrite(t, a, round(sid, 2, 1, call)) // the same call again: cached, no statement
	mustWrite(t, b, round(sid, 3, 1, call)) // b reads the session's texts first
	if n := docCount(t, a, sid, RecallCalls, summary); n != 1 {
		t.Fatalf("the same call's summary is stored %d times, want 1", n)
	}

	// b stores a new text; a's cache is stale and must not add it again.
	other := tc("c2", "read_file", map[string]string{"path": "util.go"}, false)
	mustWrite(t, b, round(sid, 4, 1, other))
	mustWrite(t, a, round(sid, 5, 1, other))
	if n := docCount(t, a, sid, RecallCalls, callsSummary([]ToolCall{other})); n != 1 {
		t.Fatalf("a text another handle stored is stored %d times, want 1", n)
	}

	// An intent a has not seen (b wrote it, b was killed): a's round 6
	// commit replaces it; an intent of another round stays.
	for _, in := range []Intent{{SessionID: sid, Round: 6, CallID: "k1", Name: "run_command"},
		{SessionID: sid, Round: 9, CallID: "k2", Name: "run_command"}} {
		if err := b.WriteIntent(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, a, round(sid, 6, 1, tc("k1", "run_command", map[string]string{"command": "make"}, false)))
	left, err := a.Intents(ctx, sid)
	if err != nil || len(left) != 1 || left[0].Round != 9 {
		t.Fatalf("intents left after round 6: %+v %v; want round 9's only", left, err)
	}
	// An intent a wrote itself, after its cache was read.
	if err := a.WriteIntent(ctx, Intent{SessionID: sid, Round: 7, CallID: "k3", Name: "write_file"}); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, a, round(sid, 7, 1, tc("k3", "write_file", map[string]string{"path": "x"}, false)))
	if left, _ := a.Intents(ctx, sid); len(left) != 1 || left[0].Round != 9 {
		t.Fatalf("intents left after round 7: %+v; want round 9's only", left)
	}
}

// TestWriterCacheForgetsAFailedWrite: a round that failed to commit was
// counted in the cache as it was written; the retry must still store its
// texts and messages, once.
func TestWriterCacheForgetsAFailedWrite(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	mustWrite(t, db, round(sid, 1, 1, tc("c1", "read_file", map[string]string{"path": "a.go"}, false)))
	if _, err := db.w.db.Exec(`PRAGMA query_only = 1`); err != nil {
		t.Fatal(err)
	}
	call := tc("c2", "grep", map[string]string{"pattern": "TODO"}, false)
	var we *WriteError
	if err := db.WriteRound(context.Background(), round(sid, 2, 1, call)); !errors.As(err, &we) {
		t.Fatalf("write on a read-only connection = %v, want a WriteError", err)
	}
	mustWrite(t, db, round(sid, 3, 1, call)) // the retry of round 2 goes first, on a new connection
	if n := docCount(t, db, sid, RecallCalls, callsSummary([]ToolCall{call})); n != 1 {
		t.Fatalf("the failed round's text is stored %d times after the retry, want 1", n)
	}
	var rounds int
	if err := db.read.QueryRow(`SELECT count(*) FROM rounds WHERE session_id = ?`, sid).Scan(&rounds); err != nil || rounds != 3 {
		t.Fatalf("%d rounds stored (%v), want 3", rounds, err)
	}
}

// TestWriterCacheAfterRollback: an op that fails after a round's texts
// were counted (a bug, not an outage) rolls back; the cache must not keep
// those texts as stored.
func TestWriterCacheAfterRollback(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	mustWrite(t, db, round(sid, 1, 1, tc("c1", "read_file", map[string]string{"path": "a.go"}, false))) // the cache is current
	docs := []recallDoc{{round: 2, task: 1, kind: RecallCalls, text: "grep TODO"}}
	err := db.submit(ctx, "failing op", func(ctx context.Context, tx *wtx) error {
		if err := insertDocs(ctx, tx, sid, docs); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO no_such_table VALUES (1)`) // a bug: a permanent error
		return err
	})
	if err == nil {
		t.Fatal("the failing op reported no error")
	}
	if err := db.submit(ctx, "the same texts", func(ctx context.Context, tx *wtx) error {
		return insertDocs(ctx, tx, sid, docs)
	}); err != nil {
		t.Fatal(err)
	}
	if n := docCount(t, db, sid, RecallCalls, "grep TODO"); n != 1 {
		t.Fatalf("a text whose first insert was rolled back is stored %d times, want 1", n)
	}
}

// TestRowsInsertedInGroups: a round's messages and transitions go in
// statements of up to three rows; seven and five of them must all be
// stored, in order, with the seqs one at a time would have had.
func TestRowsInsertedInGroups(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	rec := RoundRecord{Round: Round{SessionID: sid, Seq: 1}}
	for i := range 7 {
		rec.Messages = append(rec.Messages, llm.Message{Role: llm.RoleUser, Content: fmt.Sprint("m", i)})
	}
	for i := range 5 {
		rec.Transitions = append(rec.Transitions, StateTransition{From: fmt.Sprint("s", i), To: fmt.Sprint("s", i+1), At: t0})
	}
	mustWrite(t, db, rec)
	mustWrite(t, db, twoMessages(sid, 2, false))
	var got []string
	err := eachRow(context.Background(), db.read, `SELECT seq, json FROM messages WHERE session_id = ? ORDER BY seq`, []any{sid},
		func(rows *sql.Rows) error {
			var seq int
			var js string
			if err := rows.Scan(&seq, &js); err != nil {
				return err
			}
			var m llm.Message
			_ = json.Unmarshal([]byte(js), &m)
			got = append(got, fmt.Sprintf("%d:%s", seq, m.Content))
			return nil
		})
	want := "[1:m0 2:m1 3:m2 4:m3 5:m4 6:m5 7:m6 8:round 2 9:go on]"
	if err != nil || fmt.Sprint(got) != want {
		t.Errorf("messages = %v (%v), want %s", got, err, want)
	}
	var states []string
	err = eachRow(context.Background(), db.read, `SELECT from_state || '>' || to_state FROM state_transitions WHERE session_id = ? ORDER BY id`, []any{sid},
		func(rows *sql.Rows) error {
			var s string
			states = append(states, s)
			return rows.Scan(&states[len(states)-1])
		})
	if err != nil || fmt.Sprint(states) != "[s0>s1 s1>s2 s2>s3 s3>s4 s4>s5]" {
		t.Errorf("transitions = %v (%v)", states, err)
	}
}
