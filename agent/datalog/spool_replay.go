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
// SQLite had not committed yet, then removes their spools. A spool whose
// keel still runs is left to it. A spool that cannot be committed now
// (the database locked or full) stays for the next open.
func (db *DB) replaySpools() {
	for _, path := range db.spoolPaths() {
		db.replaySpool(path)
	}
}

// spoolPaths lists the spool files next to the database, living keels'
// included.
func (db *DB) spoolPaths() []string {
	dir, base := filepath.Split(db.path)
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
// had stored, through a writer of its own that it closes at once. It
// does nothing when there is no spool or this keel cannot write the
// schema found.
func (db *DB) replayReadOnly(latest int) {
	if db.version != latest || len(db.spoolPaths()) == 0 {
		return
	}
	w, err := newWriter(db.path, db.opts.BusyTimeout)
	if err != nil {
		return
	}
	w.start()
	tmp := &DB{path: db.path, opts: db.opts, red: db.red, version: db.version, w: w}
	tmp.replaySpools()
	_ = w.close()
}

func (db *DB) replaySpool(path string) {
	f, err := takeDead(path)
	if err != nil {
		return
	}
	defer f.Close() // after the removal: no other keel replays it meanwhile
	b, err := io.ReadAll(f)
	if err != nil {
		return
	}
	if entries := decodeFrames(b); len(entries) > 0 {
		err := db.submit(context.Background(), "the rounds a stopped keel had spooled", func(ctx context.Context, tx *wtx) error {
			return replayEntries(ctx, tx, entries)
		})
		if err != nil {
			return
		}
	}
	os.Remove(path)
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
	p := &preparedRound{rec: e.Round, at: e.At, messages: make([]string, len(e.Messages))}
	p.bodies = len(p.rec.Request) > 0 || len(p.rec.Response) > 0
	stored := make([]llm.Message, len(e.Messages))
	for i, raw := range e.Messages {
		p.messages[i] = string(raw)
		if err := json.Unmarshal(raw, &stored[i]); err != nil {
			return nil, err
		}
	}
	p.recall = roundDocs(p.rec, stored, p.at)
	return p, nil
}
