package datalog

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is one embedded schema step; version n is file 000n_*.sql.
// then, when set, runs after the SQL in the same transaction: data the
// new schema derives from the old, which SQL alone cannot compute.
type migration struct {
	version int
	name    string
	sql     string
	then    func(context.Context, *sql.Tx) error
}

// migrationSteps are the Go steps of migrations, by version.
var migrationSteps = map[int]func(context.Context, *sql.Tx) error{
	6: backfillRecall,
}

// loadMigrations reads the embedded migrations in version order. The file
// names are checked so a gap or a duplicate fails every test at once.
func loadMigrations() ([]migration, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []migration
	for i, n := range names {
		base := path.Base(n)
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil || v != i+1 {
			return nil, fmt.Errorf("migration %s is out of sequence; name migrations 0001_*.sql, 0002_*.sql, ... without gaps", base)
		}
		b, err := migrationFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: base, sql: string(b), then: migrationSteps[v]})
	}
	return out, nil
}

// schemaVersion returns PRAGMA user_version, where keel keeps the number
// of the last migration applied.
func schemaVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// migrate applies the migrations above the database's version, each in
// its own transaction together with the version bump, so a crash leaves
// the database at one version or the next, never between. The writer's
// transactions are BEGIN IMMEDIATE: each one holds the write lock from the
// start, and the version is read again under it, so processes opening a
// fresh datalog together apply each migration once and wait for each
// other (busy_timeout) instead of failing.
func migrate(ctx context.Context, db *sql.DB, migs []migration) error {
	cur, err := schemaVersion(ctx, db)
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	for _, m := range migs {
		if m.version <= cur {
			continue
		}
		if err := applyRetrying(ctx, db, m); err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
	}
	return nil
}

// migrateWait is how long a migration waits for other processes setting
// up the same datalog: each holds the lock for its own migrations, which
// on a busy machine can outlast one busy timeout.
const migrateWait = time.Minute

// applyRetrying applies m, retrying while another process holds the lock.
func applyRetrying(ctx context.Context, db *sql.DB, m migration) error {
	deadline := time.Now().Add(migrateWait)
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		err := applyMigration(ctx, db, m)
		if err == nil || !busy(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait)
	}
}

func applyMigration(ctx context.Context, db *sql.DB, m migration) error {
	tx, err := db.BeginTx(ctx, nil) // immediate: the write lock first
	if err != nil {
		return err
	}
	defer tx.Rollback()
	v, err := schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if v >= m.version {
		return nil // another process applied it while this one waited
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	if m.then != nil {
		if err := m.then(ctx, tx); err != nil {
			return err
		}
	}
	// PRAGMA takes no bound parameters; the version is an int we made.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
		return err
	}
	return tx.Commit()
}
