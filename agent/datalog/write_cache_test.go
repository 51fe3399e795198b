package datalog

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/keel-dev/keel/agent/llm"
)

// writerState runs on the writer goroutine, between transactions of
// other ops, and reports whether the statements a round uses are
// prepared and how many sessions' message counters it caches. A
// statement nothing has run (reopening a session) must not be prepared.
func writerState(t *testing.T, db *DB) (prepared bool, counters int) {
	t.Helper()
	err := db.submit(context.Background(), "probe", func(ctx context.Context, tx *wtx) error {
		prepared = tx.w.stmts[stInsertMessages2] != nil // the tests' rounds have two messages
		for _, c := range tx.w.sessions {
			if c.counter != nil {
				counters++
			}
		}
		if prepared && tx.stmt(ctx, stInsertMessages2) == nil {
			return errors.New("a prepared statement did not bind to the transaction")
		}
		if tx.w.stmts[stReopenSession] != nil {
			return errors.New("a statement that never ran was prepared")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return prepared, counters
}

// messageRows lists a session's stored messages as "seq:round:epoch".
func messageRows(t *testing.T, db *DB, sid string) []string {
	t.Helper()
	rows, err := db.read.Query(`SELECT seq, round_seq, epoch FROM messages WHERE session_id = ? ORDER BY seq`, sid)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var seq, round, epoch int
		if err := rows.Scan(&seq, &round, &epoch); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d:%d:%d", seq, round, epoch))
	}
	return out
}

func twoMessages(sid string, seq int, reset bool) RoundRecord {
	return RoundRecord{Round: Round{SessionID: sid, Seq: seq}, HistoryReset: reset, Messages: []llm.Message{
		{Role: llm.RoleAssistant, Content: fmt.Sprint("round ", seq)}, {Role: llm.RoleUser, Content: "go on"}}}
}

// TestMessageCountersSurviveOtherWriters writes one session from three
// handles, as a resumed session or a second keel process would: the
// cached seq and epoch must follow what the others committed.
func TestMessageCountersSurviveOtherWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keel.db")
	open := func() *DB {
		db, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	a := open()
	sid := startTest(t, a, Session{})
	mustWrite(t, a, twoMessages(sid, 1, false))
	mustWrite(t, a, twoMessages(sid, 2, true))
	mustWrite(t, a, twoMessages(sid, 3, false))
	if prepared, n := writerState(t, a); !prepared || n != 1 {
		t.Fatalf("writer: prepared=%v, %d cached counters; want prepared, 1", prepared, n)
	}
	b := open() // first write of the session in b: read from the database
	mustWrite(t, b, twoMessages(sid, 4, false))
	mustWrite(t, b, twoMessages(sid, 5, true))
	mustWrite(t, a, twoMessages(sid, 6, false)) // a's cache is stale: b committed
	a.Close()
	c := open()
	mustWrite(t, c, twoMessages(sid, 7, false))
	want := []string{"1:1:0", "2:1:0", "3:2:2", "4:2:2", "5:3:2", "6:3:2", "7:4:2", "8:4:2",
		"9:5:5", "10:5:5", "11:6:5", "12:6:5", "13:7:5", "14:7:5"}
	if got := messageRows(t, c, sid); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("messages (seq:round:epoch):\n%v\nwant:\n%v", got, want)
	}
}

// TestOutageDropsStatementsAndCounters: after a failed write the writer
// reopens its connection without the statements and counters of the old
// one, then prepares them again; the session's sequence is unbroken.
func TestOutageDropsStatementsAndCounters(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	mustWrite(t, db, twoMessages(sid, 1, false))
	mustWrite(t, db, twoMessages(sid, 2, false))
	if prepared, n := writerState(t, db); !prepared || n != 1 {
		t.Fatalf("before the outage: prepared=%v, %d counters; want prepared, 1", prepared, n)
	}
	if _, err := db.w.db.Exec(`PRAGMA query_only = 1`); err != nil {
		t.Fatal(err)
	}
	var we *WriteError
	if err := db.WriteRound(context.Background(), twoMessages(sid, 3, false)); !errors.As(err, &we) {
		t.Fatalf("write on a read-only connection = %v, want a WriteError", err)
	}
	// The probe's flush retries round 3 on a fresh connection first.
	if prepared, _ := writerState(t, db); prepared {
		t.Errorf("statements of the failed connection were kept")
	}
	mustWrite(t, db, twoMessages(sid, 4, true))
	if prepared, n := writerState(t, db); !prepared || n != 1 {
		t.Errorf("after the outage: prepared=%v, %d counters; want prepared again, 1", prepared, n)
	}
	mustWrite(t, db, twoMessages(sid, 5, false))
	want := []string{"1:1:0", "2:1:0", "3:2:0", "4:2:0", "5:3:0", "6:3:0", "7:4:4", "8:4:4", "9:5:4", "10:5:4"}
	if got := messageRows(t, db, sid); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("messages (seq:round:epoch):\n%v\nwant:\n%v", got, want)
	}
}

// TestPruneForgetsCounters: a pruned session's counter must not outlive
// its rows.
func TestPruneForgetsCounters(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	mustWrite(t, db, twoMessages(sid, 1, false))
	if _, err := db.Prune(context.Background(), t0.Add(1)); err != nil {
		t.Fatal(err)
	}
	if _, n := writerState(t, db); n != 0 {
		t.Errorf("%d counters cached after prune, want 0", n)
	}
	startTest(t, db, Session{ID: sid})
	mustWrite(t, db, twoMessages(sid, 1, false))
	if got := messageRows(t, db, sid); fmt.Sprint(got) != "[1:1:0 2:1:0]" {
		t.Errorf("messages after prune and restart = %v", got)
	}
}
