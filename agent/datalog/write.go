package datalog

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// NewID returns a session id: 8 hex digits of Unix seconds then 8 random
// hex digits, so ids sort by start time and a short prefix is unique.
func NewID(now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%08x%s", uint32(now.Unix()), hex.EncodeToString(b[:]))
}

// ShortID is the id prefix keel log shows; ResolveID accepts it.
func ShortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// Pending is the number of writes kept in memory after a failure.
func (db *DB) Pending() int {
	if db.w == nil {
		return 0
	}
	return int(db.w.npending.Load())
}

func (db *DB) submit(ctx context.Context, name string, fn func(context.Context, *wtx) error) error {
	return db.queue(ctx, name, fn)()
}

// submitOnce is submit for an op that is not kept to retry when it
// fails (op.once).
func (db *DB) submitOnce(ctx context.Context, name string, fn func(context.Context, *wtx) error) error {
	switch {
	case db.refuse != nil:
		return db.refuse
	case db.w == nil:
		return ErrClosed
	}
	return db.w.queue(ctx, &op{name: name, fn: fn, once: true, committed: new(bool)})()
}

// queue hands an op to the writer; wait returns its outcome.
func (db *DB) queue(ctx context.Context, name string, fn func(context.Context, *wtx) error) (wait func() error) {
	switch {
	case db.refuse != nil:
		err := db.refuse
		return func() error { return err }
	case db.w == nil:
		return func() error { return ErrClosed }
	}
	return db.w.queue(ctx, &op{name: name, fn: fn})
}

// StartSession records a new session and returns its id (s.ID, or a new
// one when empty). Started defaults to now. The id is valid even when the
// write failed with a *WriteError: the row is retried with the next write.
func (db *DB) StartSession(ctx context.Context, s Session) (string, error) {
	if s.ID == "" {
		s.ID = NewID(db.opts.Now())
	}
	if s.Started.IsZero() {
		s.Started = db.opts.Now()
	}
	r := db.red.session(s)
	err := db.submit(ctx, "session "+s.ID, func(ctx context.Context, tx *wtx) error {
		_, err := tx.exec(ctx, stInsertSession,
			r.ID, r.ProjectRoot, r.Cwd, r.GitBranch, r.Provider, r.Model, string(r.Config), r.FirstPrompt, nanos(r.Started))
		if err == nil && r.ParentID != "" {
			err = linkChild(ctx, tx, r)
		}
		return err
	})
	return s.ID, err
}

// SetFirstPrompt records the first prompt of a session started before the
// user typed one.
func (db *DB) SetFirstPrompt(ctx context.Context, id, prompt string) error {
	prompt = db.red.String(prompt)
	return db.submit(ctx, "session "+id, func(ctx context.Context, tx *wtx) error {
		_, err := tx.exec(ctx, stSetFirstPrompt, prompt, id)
		return err
	})
}

// EndSession marks a session ended. The sums accumulated round by round
// stand; totals only raise a sum the process counted more of (a round that
// failed, tokens estimated without usage). They never replace it: a
// continued session's process counts only its own calls, tokens and cost.
func (db *DB) EndSession(ctx context.Context, id, stopReason string, totals Totals) error {
	at := nanos(db.opts.Now())
	stopReason = db.red.String(stopReason)
	return db.submit(ctx, "end of session "+id, func(ctx context.Context, tx *wtx) error {
		return endSession(ctx, tx, id, at, stopReason, totals)
	})
}

func endSession(ctx context.Context, tx *wtx, id string, at int64, stopReason string, totals Totals) error {
	if _, err := tx.exec(ctx, stEndSession, at, stopReason, id); err != nil {
		return err
	}
	if totals == (Totals{}) {
		return nil
	}
	_, err := tx.exec(ctx, stEndTotals,
		totals.Rounds, totals.ToolCalls, totals.TokensIn, totals.TokensOut, totals.TokensCached, totals.Cost, id)
	return err
}

// WriteIntent commits a call about to run, before it starts. Write it for
// calls with side effects only: it costs a commit.
func (db *DB) WriteIntent(ctx context.Context, in Intent) error {
	in = db.red.intent(in)
	started := nanos(in.Started)
	if started == 0 {
		started = nanos(db.opts.Now())
	}
	return db.submit(ctx, fmt.Sprintf("call %s of round %d", in.CallID, in.Round), func(ctx context.Context, tx *wtx) error {
		if _, err := tx.exec(ctx, stInsertIntent, in.SessionID, in.Round, in.CallID, in.Name, in.Arguments, started); err != nil {
			return err
		}
		tx.noteIntent(in.SessionID, in.Round)
		return nil
	})
}

// EndTask commits how a task ended, whatever ended it: the transitions
// and plan snapshots not yet written (the last one, to done, halted or
// failed, has no round after it), and the session's stop reason and
// totals (as EndSession).
func (db *DB) EndTask(ctx context.Context, id string, round int, transitions []StateTransition, plans []PlanSnapshot, stopReason string, totals Totals) error {
	rec := db.red.record(RoundRecord{Round: Round{SessionID: id, Seq: round}, Transitions: transitions, Plans: plans})
	at := nanos(db.opts.Now())
	p := &preparedRound{rec: rec, recall: roundDocs(rec, nil, at)}
	stopReason = db.red.String(stopReason)
	return db.submit(ctx, "end of a task of session "+id, func(ctx context.Context, tx *wtx) error {
		if err := p.insertTransitions(ctx, tx); err != nil {
			return err
		}
		if err := p.insertPlans(ctx, tx); err != nil {
			return err
		}
		if err := p.insertRecall(ctx, tx); err != nil {
			return err
		}
		return endSession(ctx, tx, id, at, stopReason, totals)
	})
}

// DropEmptySession deletes session id when nothing was recorded in it: no
// prompt, no round, no unfinished call. A TUI opened and closed without a
// prompt then leaves no row for keel -c, the picker or keel log to show.
func (db *DB) DropEmptySession(ctx context.Context, id string) error {
	return db.submit(ctx, "the empty session "+id, func(ctx context.Context, tx *wtx) error {
		_, err := tx.Exec(ctx, `DELETE FROM sessions WHERE id = ? AND first_prompt = '' AND rounds = 0
			AND NOT EXISTS (SELECT 1 FROM call_intents WHERE session_id = ?)`, id, id)
		return err
	})
}

// ReopenSession clears the end of a session that is being resumed, so it
// is listed as running again and later rounds continue its sequence.
func (db *DB) ReopenSession(ctx context.Context, id string) error {
	return db.submit(ctx, "session "+id, func(ctx context.Context, tx *wtx) error {
		_, err := tx.exec(ctx, stReopenSession, id)
		return err
	})
}

// UpdateInterventionReply attaches the model's reply text to the
// intervention at (round, index) of a session.
func (db *DB) UpdateInterventionReply(ctx context.Context, sessionID string, round, index int, reply string) error {
	reply = db.red.String(reply)
	name := fmt.Sprintf("intervention reply, round %d", round)
	return db.submit(ctx, name, func(ctx context.Context, tx *wtx) error {
		_, err := tx.exec(ctx, stInterventionReply, reply, sessionID, round, index)
		return err
	})
}

// Prune deletes sessions that started before cutoff with everything they
// own, and returns how many went.
func (db *DB) Prune(ctx context.Context, cutoff time.Time) (int, error) {
	var n int64
	err := db.submit(ctx, "prune", func(ctx context.Context, tx *wtx) error {
		tx.forgetSessions() // the cache may name deleted sessions
		res, err := tx.Exec(ctx, `DELETE FROM sessions WHERE started_at < ?`, nanos(cutoff))
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		return pruneImages(ctx, tx)
	})
	return int(n), err
}
