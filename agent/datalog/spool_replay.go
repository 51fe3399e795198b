package datalog

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/keel-dev/keel/agent/llm"
)

// replaySpools commits the rounds that keels which died had spooled and
// SQLite had not committed yet, then removes their spools. It runs on the
// writer's connection before its goroutine starts, each spool in one
// transaction whose outcome is known: a spool that cannot be committed
// now (the database locked or full) stays, locked until it is decided,
// for the next open. A spool whose keel still runs is left to it.
func (w *writer) replaySpools(dbPath string) {
	for _, path := range spoolPaths(dbPath) {
		if !w.replaySpool(path) {
			return // the database cannot take them now: the next open tries again
		}
	}
}

// spoolPaths lists the spool files next to the database at dbPath,
// living keels' included.
func spoolPaths(dbPath string) []string {
	dir, base := filepath.Split(dbPath)
	if dir == "" {
		dir = "."
	}
	names, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var paths []string
	for _, e := range names {
		if strings.HasPrefix(e.Name(), base+"-spool.") {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return paths
}

// replayReadOnly replays dead keels' spools for a read-only open (keel
// log), so what it shows after a crash holds every round the dead keel
// had stored, on a write connection of its own that it closes at once. It
// does nothing when there is no spool or this keel cannot write the
// schema found.
func (db *DB) replayReadOnly(latest int) {
	if db.version != latest || len(spoolPaths(db.path)) == 0 {
		return
	}
	w, err := newWriter(db.path, db.opts.BusyTimeout)
	if err != nil {
		return
	}
	w.replaySpools(db.path)
	w.reset() // closes the connection; the goroutine never ran
}

// replaySpool commits the spool at path if its keel is gone, and reports
// false when the database refused the commit.
func (w *writer) replaySpool(path string) bool {
	f, err := takeDead(path)
	if err != nil {
		return true
	}
	defer f.Close() // after the removal: no other keel replays it meanwhile
	b, err := io.ReadAll(f)
	if err != nil {
		return true
	}
	entries, rest := decodeFrames(b)
	if len(entries) > 0 {
		err := w.apply([]op{{name: "the rounds a stopped keel had spooled", fn: func(ctx context.Context, tx *wtx) error {
			return replayEntries(ctx, tx, entries)
		}}})
		if err != nil {
			w.reset() // the next write starts on a fresh connection
			return false
		}
	}
	switch rest {
	case spoolForeign:
		// Written by another version of keel: left for one that reads it.
	case spoolDamaged:
		// What follows the damage cannot be read; kept aside, not replayed again.
		os.Rename(path, strings.Replace(path, "-spool.", "-spool-damaged.", 1))
	default:
		os.Remove(path)
	}
	return true
}

// replayEntries inserts the rounds SQLite lacks, each in a savepoint: a
// round already committed (its process died after the commit) or whose
// session is gone (pruned) is skipped, and one that fails for good does
// not keep the others out.
func replayEntries(ctx context.Context, tx *wtx, entries []spoolEntry) error {
	for i := range entries {
		p, err := entries[i].prepared()
		if err != nil {
			continue
		}
		r := p.rec.Round
		var skip bool
		err = tx.tx.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM rounds WHERE session_id = ?1 AND seq = ?2)
			OR NOT EXISTS(SELECT 1 FROM sessions WHERE id = ?1)`, r.SessionID, r.Seq).Scan(&skip)
		if err != nil {
			return err
		}
		if skip {
			continue
		}
		if err := replayOne(ctx, tx, p); err != nil {
			return err
		}
	}
	return nil
}

// replayOne inserts p in a savepoint; it returns only transient errors.
func replayOne(ctx context.Context, tx *wtx, p *preparedRound) error {
	if _, err := tx.Exec(ctx, `SAVEPOINT replay`); err != nil {
		return err
	}
	err := p.insert(ctx, tx)
	if err != nil && transient(err) {
		return err
	}
	if err != nil {
		tx.forgetSessions() // the cache may hold what the rollback undoes
		if _, err := tx.Exec(ctx, `ROLLBACK TO replay`); err != nil {
			return err
		}
	}
	_, err = tx.Exec(ctx, `RELEASE replay`)
	return err
}

// prepared is the entry as the writer inserts it: its recall documents
// are derived again from the stored records.
func (e *spoolEntry) prepared() (*preparedRound, error) {
	p := &preparedRound{rec: e.Round, at: e.At, messages: e.Messages}
	p.bodies = len(p.rec.Request) > 0 || len(p.rec.Response) > 0
	stored := make([]llm.Message, len(e.Messages))
	for i, m := range e.Messages {
		if err := json.Unmarshal([]byte(m), &stored[i]); err != nil {
			return nil, err
		}
	}
	p.recall = roundDocs(p.rec, stored, p.at)
	return p, nil
}
