package datalog

import (
	"context"
	"database/sql"
	"hash/maphash"
)

// sessionCache is what the writer knows of one session's rows, so that a
// round's write need not ask the database: its message counter, the
// recall documents it holds, and the rounds with call intents. Each part
// is read the first time a transaction needs it and kept up to date by
// the writes that follow. The writer keeps it while no other connection
// commits (wtx.session), and drops it with its connection, after any
// failed write (a rolled-back transaction may have added to it) and
// after a prune.
type sessionCache struct {
	counter *msgCounter
	recall  *docSet      // nil until read
	intents map[int]bool // rounds with intents stored; nil until read
}

// recallDocs returns the session's recall documents, read once.
func (t *wtx) recallDocs(ctx context.Context, sid string) (*docSet, error) {
	c, err := t.session(ctx, sid)
	if err != nil {
		return nil, err
	}
	if c.recall != nil {
		return c.recall, nil
	}
	set := newDocSet(sid)
	err = eachRow(ctx, t.tx, `SELECT kind, task_seq, text FROM recall_docs WHERE session_id = ?`, []any{sid},
		func(rows *sql.Rows) error {
			var d recallDoc
			if err := rows.Scan(&d.kind, &d.task, &d.text); err != nil {
				return err
			}
			set.add(sid, d)
			return nil
		})
	if err != nil {
		return nil, err
	}
	c.recall = set
	return set, nil
}

// intentRounds returns the rounds of the session with intents stored,
// read once.
func (t *wtx) intentRounds(ctx context.Context, sid string) (map[int]bool, error) {
	c, err := t.session(ctx, sid)
	if err != nil {
		return nil, err
	}
	if c.intents != nil {
		return c.intents, nil
	}
	rounds := map[int]bool{}
	err = eachRow(ctx, t.tx, `SELECT DISTINCT round_seq FROM call_intents WHERE session_id = ?`, []any{sid},
		func(rows *sql.Rows) error {
			var r int
			if err := rows.Scan(&r); err != nil {
				return err
			}
			rounds[r] = true
			return nil
		})
	if err != nil {
		return nil, err
	}
	c.intents = rounds
	return rounds, nil
}

// noteIntent records that a round has intents, in the cache when its
// intents were read: a cache made stale by another connection is dropped
// before its next use, and one not read yet will read the row.
func (t *wtx) noteIntent(sid string, round int) {
	if t.w == nil {
		return
	}
	if c := t.w.sessions[sid]; c != nil && c.intents != nil {
		c.intents[round] = true
	}
}

// forgetSessions drops the writer's cache (a prune deleted sessions).
func (t *wtx) forgetSessions() {
	if t.w != nil {
		t.w.sessions = nil
	}
}

// docSet applies the rules of recall documents to one session's
// documents in order: a text once per kind, a prompt once per task. It
// keeps hashes, not the texts (up to 16 KB each).
type docSet struct {
	sid   string
	texts map[uint64]bool
	tasks map[int]bool
}

func newDocSet(sid string) *docSet {
	return &docSet{sid: sid, texts: map[uint64]bool{}, tasks: map[int]bool{}}
}

// docSeed seeds the hashes of docSet; they live in memory only.
var docSeed = maphash.MakeSeed()

// add reports whether d is new to its session, and records it; a
// document of another session starts the set again.
func (s *docSet) add(sid string, d recallDoc) bool {
	if sid != s.sid || s.texts == nil {
		*s = *newDocSet(sid)
	}
	if d.kind == RecallPrompt {
		if s.tasks[d.task] {
			return false
		}
		s.tasks[d.task] = true
		return true
	}
	var h maphash.Hash
	h.SetSeed(docSeed)
	h.WriteString(d.kind)
	h.WriteByte(0)
	h.WriteString(d.text)
	k := h.Sum64()
	if s.texts[k] {
		return false
	}
	s.texts[k] = true
	return true
}
