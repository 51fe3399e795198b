package datalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
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

// dropOnce takes a once op that was not committed out of the pending
// records (it is the last: serve just added it) and returns the failure
// for its caller: err, or the outage's when flush reported it already.
func (w *writer) dropOnce(err error) error {
	w.pending = w.pending[:len(w.pending)-1]
	if err == nil {
		w.errMu.Lock()
		err = w.lastErr
		w.errMu.Unlock()
	}
	if err == nil {
		err = errors.New("the datalog could not commit it")
	}
	return err
}

// healthWatch relays the writer's outages to DB.Watch's function.
type healthWatch struct {
	mu   sync.Mutex
	fn   func(error)
	down error // the outage under way, nil when none
}

// Watch has fn told when an outage begins (the *WriteError), at once if
// one is under way, and when it ends (nil: every record kept in memory
// is saved). fn runs on the writer's goroutine: it must not block or use
// db.
func (db *DB) Watch(fn func(error)) {
	h := db.health
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fn = fn
	if h.down != nil {
		fn(h.down)
	}
}

// tell records an outage's start (err) or end (nil) and passes it on.
func (w *writer) tell(err error) {
	h := w.health
	h.mu.Lock()
	defer h.mu.Unlock()
	h.down = err
	if h.fn != nil {
		h.fn(err)
	}
}

// CatchUp waits until the records a failure left in memory are saved,
// retrying, or until ctx ends; then it returns the failure that keeps
// them (nil when none is left).
func (db *DB) CatchUp(ctx context.Context) error {
	w := db.w
	if w == nil {
		return nil
	}
	for backoff := retryMin; ; backoff = min(2*backoff, retryMax/4) {
		_ = w.queue(ctx, nil)()
		if w.npending.Load() == 0 {
			return nil
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return w.outageErr()
		case <-t.C:
		}
	}
}

// outageErr is the failure that keeps records in memory.
func (w *writer) outageErr() error {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	if w.lastErr != nil {
		return w.lastErr
	}
	return fmt.Errorf("%d record(s) wait to be saved", w.npending.Load())
}
