package datalog

import (
	"context"
	"database/sql"
	"errors"
)

// report keeps err, a failure nobody waited for (a read's flush, a
// retry in the background), for the next write to return (the first
// one, until taken), or Close. A cancelled or closed caller's error is
// not the datalog's.
func (w *writer) report(err error) {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrClosed) {
		return
	}
	w.errMu.Lock()
	if w.asyncErr == nil {
		w.asyncErr = err
	}
	w.errMu.Unlock()
}

// clearOutageError forgets a kept *WriteError once its outage is over:
// it would say records wait in memory when none do.
func (w *writer) clearOutageError() {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	var we *WriteError
	if errors.As(w.asyncErr, &we) {
		w.asyncErr = nil
	}
}

// takeAsyncErr returns and forgets a kept failure.
func (w *writer) takeAsyncErr() error {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	err := w.asyncErr
	w.asyncErr = nil
	return err
}

// notePending publishes how many records wait in memory (DB.Pending).
func (w *writer) notePending() { w.npending.Store(int64(len(w.pending))) }

// reader is the read pool, once the writes handed to the writer are
// committed: a read sees every round QueueRound was given, even while
// its commit is under way. During an outage (the database locked or
// full) reads do not wait for a commit that cannot happen and see the
// rounds committed so far.
func (db *DB) reader(ctx context.Context) *sql.DB {
	if w := db.w; w != nil && w.queued.Load() > 0 && !w.outage.Load() {
		_ = w.queue(ctx, nil)() // what fails is kept for the next write to report
	}
	return db.read
}
