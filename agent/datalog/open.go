package datalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Options configure a DB. The zero value is a writable store without
// redaction beyond API keys the caller lists.
type Options struct {
	// ReadOnly opens for reading only (keel log); writes return ErrReadOnly.
	ReadOnly bool
	// CaptureBodies stores raw request/response bodies with each round.
	CaptureBodies bool
	// Environ is the environment ("NAME=value") whose secret-looking
	// variables are redacted; pass os.Environ().
	Environ []string
	// Secrets are further values to redact, by name (e.g. the API key).
	Secrets map[string]string
	// BusyTimeout is how long a write waits for a lock; default 5s.
	BusyTimeout time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// DB is the datalog. Reads may run concurrently; writes go through one
// writer goroutine. Close it to flush.
type DB struct {
	path    string
	opts    Options
	red     *redactor
	read    *sql.DB
	version int     // schema version found on disk
	refuse  error   // non-nil: every write fails with it
	w       *writer // nil when refuse is set
	// health is w's outage watch, kept apart from w so Watch may run
	// while Close clears w.
	health *healthWatch
}

// ErrReadOnly is returned by writes on a DB opened with Options.ReadOnly.
var ErrReadOnly = errors.New("the datalog was opened read-only; open it without ReadOnly to write")

// NewerSchemaError says the database was written by a newer keel.
type NewerSchemaError struct {
	Path          string
	Found, Latest int
}

// Error says the database is newer and what to do.
func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("datalog %s has schema version %d but this keel knows only %d; "+
		"it was written by a newer keel, so it is open read-only: upgrade keel to log to it", e.Path, e.Found, e.Latest)
}

// Open opens (creating if needed) the datalog at path and migrates it.
func Open(path string, opts Options) (*DB, error) {
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := prepareFile(path, opts.ReadOnly); err != nil {
		return nil, fmt.Errorf("open datalog %s: %w", path, err)
	}
	migs, err := loadMigrations()
	if err != nil {
		return nil, err
	}
	db := &DB{path: path, opts: opts, red: newRedactor(opts.Environ, opts.Secrets)}
	if err := db.openWriter(migs); err != nil {
		return nil, err
	}
	// The read pool connects on its first query: a headless run that never
	// reads does not pay for a connection and its copy of the schema.
	db.read, err = sql.Open("sqlite", dsn(path, opts.BusyTimeout, true))
	if err == nil {
		db.read.SetMaxOpenConns(4)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open datalog %s for reading: %w", path, err)
	}
	return db, nil
}

// prepareFile creates the directory (0700) and the file (0600) so SQLite
// never creates them with the process umask.
func prepareFile(path string, readOnly bool) error {
	if readOnly {
		_, err := os.Stat(path)
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("no datalog yet (%w); run keel once to create it", err)
		}
		if err != nil {
			return fmt.Errorf("%w; %s", err, accessHint(path))
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create its directory: %w; set datalog.path or --datalog to a writable place", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("%w; set datalog.path or --datalog to a writable place", err)
	}
	return f.Close()
}

// openWriter opens the write connection, migrates, and decides whether
// writes are refused (read-only, or a newer schema).
func (db *DB) openWriter(migs []migration) error {
	if db.opts.ReadOnly {
		db.refuse = ErrReadOnly
		if err := db.checkVersion(migs); err != nil {
			return err
		}
		return nil
	}
	w, v, err := db.openVersioned()
	if err != nil {
		return err
	}
	ctx := context.Background()
	if v > len(migs) {
		w.db.Close()
		db.version = v
		db.refuse = &NewerSchemaError{Path: db.path, Found: v, Latest: len(migs)}
		return nil
	}
	if err := migrate(ctx, w.db, migs); err != nil {
		w.db.Close()
		return fmt.Errorf("upgrade datalog %s: %w", db.path, err)
	}
	db.version = len(migs)
	db.w, db.health = w, w.health
	w.start()
	return nil
}

// openVersioned opens the write connection and reads the schema version.
// Processes opening a fresh datalog together can find it locked while
// one of them switches it to WAL, which SQLite's busy handler does not
// cover; such an open is retried with backoff for up to BusyTimeout.
func (db *DB) openVersioned() (*writer, int, error) {
	deadline := db.opts.Now().Add(db.opts.BusyTimeout)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		w, v, err := db.tryOpenVersioned()
		if err == nil || !busy(err) || db.opts.Now().After(deadline) {
			return w, v, err
		}
		time.Sleep(wait)
	}
}

func (db *DB) tryOpenVersioned() (*writer, int, error) {
	w, err := newWriter(db.path, db.opts.BusyTimeout)
	if err != nil {
		return nil, 0, fmt.Errorf("open datalog %s: %w", db.path, err)
	}
	v, err := schemaVersion(context.Background(), w.db)
	if err != nil {
		w.db.Close()
		return nil, 0, openProblem(db.path, err)
	}
	return w, v, nil
}

// checkVersion reads the version of a database opened read-only: one
// older than this keel cannot be read until a writable open upgrades it.
func (db *DB) checkVersion(migs []migration) error {
	tmp, err := sql.Open("sqlite", dsn(db.path, db.opts.BusyTimeout, true))
	if err != nil {
		return fmt.Errorf("open datalog %s: %w", db.path, err)
	}
	defer tmp.Close()
	v, err := schemaVersion(context.Background(), tmp)
	if err != nil {
		return openProblem(db.path, err)
	}
	if v == 0 {
		return fmt.Errorf("datalog %s: %w", db.path, ErrNotSetUp)
	}
	db.version = v
	if v < len(migs) {
		return fmt.Errorf("datalog %s has schema version %d, older than this keel's %d; run keel once (not keel log) to upgrade it", db.path, v, len(migs))
	}
	if v > len(migs) {
		db.refuse = &NewerSchemaError{Path: db.path, Found: v, Latest: len(migs)}
	}
	return nil
}

// cacheKiB caps each connection's page cache. SQLite's default (2 MiB)
// held most of keel's growth in memory over a long session; a round's
// writes touch the right edge of a few B-trees, and the system's own file
// cache serves the rest (issue 15: WriteRound unchanged, see BENCHMARKS.md).
const cacheKiB = 512

// dsn builds a modernc DSN. Readers get query_only so a bug in the read
// side cannot write; the writer sets WAL and synchronous=NORMAL (commits
// do not fsync; a crash loses at most the last commits, never integrity).
func dsn(path string, busy time.Duration, reader bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", fmt.Sprintf("cache_size(-%d)", cacheKiB))
	if reader {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
		// The WAL file keeps its largest size after a checkpoint unless
		// limited: a round with large file contents would leave it megabytes.
		q.Add("_pragma", fmt.Sprintf("journal_size_limit(%d)", walLimit))
		q.Set("_txlock", "immediate")
	}
	return path + "?" + q.Encode()
}

// Path is the database file's path.
func (db *DB) Path() string { return db.path }

// SchemaVersion is the schema version of the file on disk.
func (db *DB) SchemaVersion() int { return db.version }

// Close flushes pending writes and closes the database. It returns the
// write error if records could not be saved.
func (db *DB) Close() error {
	var err error
	if db.w != nil {
		err = db.w.close()
		db.w = nil
	}
	if db.read != nil {
		if cerr := db.read.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
