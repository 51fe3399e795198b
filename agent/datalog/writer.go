package datalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrClosed is returned by writes after Close.
var ErrClosed = errors.New("the datalog is closed; open it again to write")

// WriteError says a write could not be committed (disk full, database
// locked or read-only). The records are kept in memory and retried, with
// the next write and on their own with backoff until they are saved;
// Close waits a while for them. It is returned once per outage, so the
// caller can show it once and carry on.
type WriteError struct {
	Op      string // what was being written, e.g. "round 12"
	Pending int    // records waiting in memory
	Err     error
}

// Error says what failed and that the records are kept and retried.
func (e *WriteError) Error() string {
	return fmt.Sprintf("datalog could not save %s: %v; keel keeps %d record(s) in memory and keeps retrying: "+
		"free disk space, fix the database's permissions or end what holds its lock", e.Op, e.Err, e.Pending)
}

// Unwrap returns the SQLite or OS error.
func (e *WriteError) Unwrap() error { return e.Err }

// op is one unit of writing, committed in its own transaction.
type op struct {
	name string
	fn   func(context.Context, *wtx) error
	// once: not kept to retry after a failure (the file journal: its
	// caller does not make the change it would record). committed says
	// it was.
	once      bool
	committed *bool
}

// request is an op for the writer, or a flush (op nil).
type request struct {
	op    *op
	reply chan error
}

// reqBuffer is how many requests wait for the writer without blocking
// their sender: a round, the intents of its calls and a read's flush.
const reqBuffer = 16

// writer owns the write connection; only its goroutine touches db and
// pending.
type writer struct {
	path string
	busy time.Duration
	db   *sql.DB // nil after a failure, until reopened

	mu       sync.RWMutex // guards closed against sends on reqs
	closed   bool
	reqs     chan request
	done     chan struct{}
	pending  []op
	npending atomic.Int64
	outage   atomic.Bool  // a failure was reported and no write has succeeded since (also read by DB.reader)
	queued   atomic.Int64 // writes handed to the writer and not served yet (DB.reader)

	errMu    sync.Mutex
	asyncErr error // a failure nobody waited for, for the next write or Close to report
	lastErr  error // the last transient failure (dropOnce, CatchUp)

	// stmts are the fixed statements prepared on db, each once it has
	// run (wanted) and warm has prepared it; they go with the connection.
	stmts  [numStmts]*sql.Stmt
	wanted [numStmts]bool
	// sessions is what the writer knows of each session's rows
	// (sessionCache), valid while PRAGMA data_version stays at
	// dataVersion (no other connection committed).
	sessions     map[string]*sessionCache
	dataVersion  int64
	versionKnown bool
	commits      int          // since the last checkpoint by idle
	health       *healthWatch // told of outages (DB.Watch)
}

func newWriter(path string, busy time.Duration) (*writer, error) {
	w := &writer{path: path, busy: busy, reqs: make(chan request, reqBuffer), done: make(chan struct{}), health: &healthWatch{}}
	if err := w.open(); err != nil {
		return nil, err
	}
	return w, nil
}

// outageBusy is the lock wait during an outage: the records are retried
// in the background, so a write need not hold up the task for the full
// busy timeout each time.
const outageBusy = 50 * time.Millisecond

func (w *writer) open() error {
	busy := w.busy
	if w.outage.Load() {
		busy = min(busy, outageBusy)
	}
	db, err := sql.Open("sqlite", dsn(w.path, busy, false))
	if err != nil {
		return err
	}
	// One connection: one writer, and per-connection pragmas stay put.
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return err
	}
	w.db = db
	return nil
}

func (w *writer) start() { go w.loop() }

// retryMin and retryMax bound the backoff between retries of records a
// failure left pending.
const (
	retryMin = 50 * time.Millisecond
	retryMax = 2 * time.Second
)

// serve commits a write with what is pending before it (a flush when op
// is nil) and replies.
func (w *writer) serve(req request) {
	if req.op != nil {
		w.pending = append(w.pending, *req.op)
	}
	err := w.flush()
	if req.op != nil && req.op.once && !*req.op.committed {
		err = w.dropOnce(err)
	}
	w.notePending()
	if req.op == nil { // a flush for a read or Close: nobody reports it
		w.report(err)
		err = nil
	} else { // a write reports what went wrong with the rounds before it
		err = errors.Join(err, w.takeAsyncErr())
	}
	if req.op != nil {
		w.queued.Add(-1)
	}
	req.reply <- err
	if req.op != nil {
		w.idle()
	}
}

func (w *writer) loop() {
	defer close(w.done)
	var retry <-chan time.Time
	backoff := retryMin
	for {
		select {
		case req, ok := <-w.reqs:
			if !ok {
				return
			}
			w.serve(req)
		case <-retry:
			w.report(w.flush()) // a new failure only: one per outage
			w.notePending()
			backoff = min(2*backoff, retryMax)
		}
		retry = nil
		if w.outage.Load() && len(w.pending) > 0 {
			retry = time.After(backoff)
		} else {
			backoff = retryMin
		}
	}
}

// checkpointEvery is how many commits the writer lets into the WAL before
// it checkpoints in its idle time. A round adds 7 to 10 pages, so the WAL
// is checkpointed near 600 pages, before SQLite's automatic checkpoint
// (1,000 pages) would run inside a round's commit; rounds much larger
// than usual still trigger that one, as before.
const checkpointEvery = 64

// walLimit is the WAL size past which the writer checkpoints in its idle
// time whatever the commits, and to which SQLite truncates the WAL after
// a checkpoint (journal_size_limit): large file contents must not leave
// the datalog several times their size.
const walLimit = 1 << 20

// walSize is the WAL file's size (0 when it cannot be read).
func (w *writer) walSize() int64 {
	fi, err := os.Stat(w.path + "-wal")
	if err != nil {
		return 0
	}
	return fi.Size()
}

// idle does the writer's housekeeping after it has replied, off the
// caller's path: it prepares the statements, and copies the WAL back
// into the database (PASSIVE: it never waits for readers, and the
// fsyncs of a checkpoint land here instead of in a round's commit).
func (w *writer) idle() {
	w.warm()
	if (w.commits >= checkpointEvery || (w.commits > 0 && w.walSize() > walLimit)) && w.db != nil && len(w.pending) == 0 {
		w.commits = 0
		// A failure is harmless: SQLite's own checkpoint still runs.
		_, _ = w.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
	}
}

// warm prepares, after a reply, the statements that have run as text on
// this connection, so the preparing costs the caller nothing and a
// process prepares only what it uses (a headless run uses about half;
// parsing them all was ~1 ms of its start). Statements must be prepared
// outside any transaction: DB.Prepare needs the one connection. A failure
// leaves the text path, which is correct, only slower.
func (w *writer) warm() {
	if w.db == nil || len(w.pending) > 0 {
		return
	}
	ctx := context.Background()
	for id, want := range w.wanted {
		if !want || w.stmts[id] != nil {
			continue
		}
		s, err := w.db.PrepareContext(ctx, stmtSQL[id])
		if err != nil {
			w.wanted[id] = false // it runs as text; its next run asks again
			continue
		}
		w.stmts[id] = s
	}
}

// closeStmts closes the prepared statements; the wanted ones are
// prepared again on the next connection.
func (w *writer) closeStmts() {
	for id, s := range w.stmts {
		if s != nil {
			s.Close()
			w.stmts[id] = nil
		}
	}
}

// queue hands o to the writer and returns at once; wait blocks until o is
// committed or has failed. Ops are committed in the order they were
// queued, whoever waits.
func (w *writer) queue(ctx context.Context, o *op) (wait func() error) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		return func() error { return ErrClosed }
	}
	reply := make(chan error, 1) // the writer never blocks on a gone caller
	w.queued.Add(1)
	select {
	case w.reqs <- request{op: o, reply: reply}:
	case <-ctx.Done():
		w.queued.Add(-1)
		return ctx.Err
	}
	return func() error {
		select {
		case err := <-reply:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// flush commits pending ops in order, each in its own transaction. A
// transient failure stops it and keeps the rest; a permanent one (a bug:
// constraint, bad SQL) drops that op so it cannot block the queue forever.
func (w *writer) flush() error {
	var permanent error
	for len(w.pending) > 0 {
		o := w.pending[0]
		err := w.apply(o)
		if err != nil && transient(err) {
			we := &WriteError{Op: o.name, Pending: len(w.pending), Err: err}
			w.errMu.Lock()
			w.lastErr = we
			w.errMu.Unlock()
			w.reset()
			if w.outage.Swap(true) {
				return nil // reported already
			}
			w.tell(we)
			return we
		}
		if err != nil {
			permanent = errors.Join(permanent,
				fmt.Errorf("datalog could not save %s: %w; this is a keel bug, please report it", o.name, err))
		}
		w.pending = w.pending[1:]
	}
	w.pending = nil
	if w.outage.Swap(false) {
		w.clearOutageError() // the outage it reported is over
		w.reset()            // reopen with the full busy timeout, not the outage's
		w.tell(nil)
	}
	return permanent
}

// apply commits o in one transaction.
func (w *writer) apply(o op) error {
	if w.db == nil {
		if err := w.open(); err != nil {
			return err
		}
	}
	ctx := context.Background()
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	t := &wtx{tx: tx, w: w}
	if err := o.fn(ctx, t); err != nil {
		tx.Rollback()
		w.sessions = nil // it may hold what the rollback undid
		return err
	}
	if err := tx.Commit(); err != nil {
		w.sessions = nil
		return err
	}
	if o.committed != nil {
		*o.committed = true
	}
	t.committed()
	w.commits++
	return nil
}

// reset drops the connection after a failure so the retry starts fresh
// (a connection that saw SQLITE_READONLY stays read-only), with its
// prepared statements and what the writer cached; warm prepares them
// again on the next connection.
func (w *writer) reset() {
	w.closeStmts()
	w.sessions, w.versionKnown = nil, false
	if w.db != nil {
		w.db.Close()
		w.db = nil
	}
}

// transient reports whether err may go away by itself: locks, a full or
// read-only disk, I/O errors. Anything else is a bug and is not retried.
func transient(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return true // driver or OS errors: connection trouble
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM,
		sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL,
		sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PROTOCOL, sqlite3.SQLITE_CORRUPT:
		return true
	}
	return false
}

// busy reports a lock held by another connection.
func busy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	c := se.Code() & 0xff
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
}

// closeWait is how long Close keeps retrying records a failure left
// pending (another process holding the lock, a disk being freed).
const closeWait = 10 * time.Second

// close flushes once more, retrying pending records for up to closeWait,
// stops the goroutine and closes the connection.
func (w *writer) close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	deadline := time.Now().Add(closeWait)
	for backoff := retryMin; ; backoff = min(2*backoff, retryMax) {
		reply := make(chan error, 1)
		w.reqs <- request{reply: reply}
		<-reply
		if w.npending.Load() == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(backoff)
	}
	w.closed = true
	close(w.reqs)
	w.mu.Unlock()
	<-w.done
	err := w.takeAsyncErr() // a failure no write came after to report
	if n := len(w.pending); n > 0 {
		err = fmt.Errorf("datalog %s: %d record(s) could not be saved and are lost; free disk space or fix the database's permissions", w.path, n)
	}
	w.reset()
	return err
}
