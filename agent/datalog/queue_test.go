package datalog

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

func roundsIn(t testing.TB, db *DB, sid string) []int {
	t.Helper()
	d, err := db.LoadSession(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int
	for _, r := range d.Rounds {
		seqs = append(seqs, r.Round.Seq)
	}
	return seqs
}

func queue(t testing.TB, db *DB, rec RoundRecord) {
	t.Helper()
	if err := db.QueueRound(context.Background(), rec)(); err != nil {
		t.Fatalf("QueueRound %d: %v", rec.Round.Seq, err)
	}
}

// committedRounds counts sid's rounds in SQLite through the read pool
// itself, without the flush DB's reads do first.
func committedRounds(t *testing.T, db *DB, sid string) int {
	t.Helper()
	var n int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM rounds WHERE session_id = ?`, sid).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// When QueueRound's wait returns, the round is committed to SQLite: the
// agent waits there before its next request.
func TestQueuedRoundIsCommittedWhenWaitReturns(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	for i := 1; i <= 5; i++ {
		queue(t, db, round(sid, i, 1, tc("c", "read_file", map[string]any{"path": i}, false)))
		if n := committedRounds(t, db, sid); n != i {
			t.Fatalf("after round %d's wait SQLite holds %d rounds", i, n)
		}
	}
}

// Every read through the DB sees the rounds handed to QueueRound, even
// when nobody waited for them yet, and a burst keeps the messages in order.
func TestReadsSeeQueuedRounds(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	const n = 48
	for i := 1; i <= n; i++ {
		db.QueueRound(context.Background(), round(sid, i, 1, tc("c", "read_file", map[string]any{"path": i}, false)))
		if i%7 == 0 { // a read in the middle of a burst
			if got := roundsIn(t, db, sid); len(got) != i {
				t.Fatalf("after %d rounds queued a read sees %d", i, len(got))
			}
		}
	}
	s, err := db.GetSession(context.Background(), sid)
	if err != nil || s.Totals.Rounds != n {
		t.Fatalf("session totals %+v, %v; want %d rounds", s.Totals, err, n)
	}
	hist, err := db.LoadHistory(context.Background(), sid)
	if err != nil || len(hist) != 2*n {
		t.Fatalf("history of %d messages, %v; want %d", len(hist), err, 2*n)
	}
	for i := 0; i < n; i++ {
		if want := "round " + strconv.Itoa(i+1); hist[2*i].Content != want {
			t.Fatalf("message %d = %q, want %q", 2*i, hist[2*i].Content, want)
		}
	}
}

// A round that fails for good (its session does not exist) is dropped,
// its own wait says so once, and the rounds around it are stored.
func TestBadQueuedRoundDropsOnlyItself(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	queue(t, db, round(sid, 1, 1))
	err := db.QueueRound(context.Background(), round("no-such-session", 1, 1))()
	if err == nil || !strings.Contains(err.Error(), "no-such-session") {
		t.Errorf("the bad round's wait = %v, want its error", err)
	}
	queue(t, db, round(sid, 2, 1))
	if got := roundsIn(t, db, sid); len(got) != 2 {
		t.Fatalf("rounds %v, want [1 2]", got)
	}
}

// QueueRound after Close says so.
func TestQueueRoundAfterClose(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	w := db.w
	db.Close()
	db.w = w // as a caller holding the DB would find it
	if err := db.QueueRound(context.Background(), round(sid, 1, 1))(); !errors.Is(err, ErrClosed) {
		t.Errorf("QueueRound after Close = %v, want ErrClosed", err)
	}
	db.w = nil
}

// A read whose context is cancelled is not a datalog failure: the next
// write does not report it.
func TestCancelledReadIsNotAWriteFailure(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	db.QueueRound(context.Background(), round(sid, 1, 1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	db.GetSession(ctx, sid)
	if err := db.QueueRound(context.Background(), round(sid, 2, 1))(); err != nil {
		t.Errorf("QueueRound after a cancelled read = %v", err)
	}
}

// While the database is locked, a queued round's wait reports the outage
// once, reads do not wait for a commit that cannot happen, and every
// round is stored once the lock goes.
func TestQueuedRoundsOutliveAnOutage(t *testing.T) {
	db := openTest(t, Options{BusyTimeout: 50 * time.Millisecond})
	sid := startTest(t, db, Session{})
	release := lockDB(t, db.path)
	var we *WriteError
	if err := db.QueueRound(context.Background(), round(sid, 1, 1))(); !errors.As(err, &we) {
		t.Fatalf("the first round in the outage = %v, want a *WriteError", err)
	}
	db.QueueRound(context.Background(), round(sid, 2, 1)) // not waited for: a read comes first
	if _, err := db.GetSession(context.Background(), sid); err != nil {
		t.Fatalf("a read during the outage: %v", err)
	}
	if err := db.QueueRound(context.Background(), round(sid, 3, 1))(); err != nil {
		t.Errorf("the outage is reported once; then %v", err)
	}
	release()
	deadline := time.Now().Add(time.Minute)
	for db.Pending() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := roundsIn(t, db, sid); len(got) != 3 {
		t.Errorf("rounds %v after the outage, want [1 2 3]", got)
	}
}
