package datalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotSetUp is returned (wrapped) by a read-only Open of a datalog whose
// schema was never created: a first keel run stopped during set-up left
// the file behind. A writable Open sets it up.
var ErrNotSetUp = errors.New("the datalog was never set up")

// openProblem turns SQLite's failure to open the datalog at path into one
// sentence that says what is wrong: only a file that is not a database is
// called one; a directory or file keel may not read or write says so.
func openProblem(path string, err error) error {
	var se *sqlite.Error
	code := 0
	if errors.As(err, &se) {
		code = se.Code() & 0xff
	}
	switch code {
	case sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("open datalog %s: it is not a keel database (%w): move it away, or set datalog.path or --datalog", path, err)
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH:
		return fmt.Errorf("open datalog %s: %w; %s", path, err, accessHint(path))
	}
	return fmt.Errorf("open datalog %s: %w", path, err)
}

// accessHint says which of the file and its directory keel lacks access
// to (SQLite writes its -wal and -shm files beside the database, so even
// reading needs a writable directory).
func accessHint(path string) string {
	dir := filepath.Dir(path)
	if err := readable(dir); err != nil {
		return fmt.Sprintf("its directory %s cannot be read (%v): give your user access to it, or set datalog.path or --datalog", dir, err)
	}
	if err := readable(path); err != nil {
		return fmt.Sprintf("the file cannot be read (%v): give your user access to it, or set datalog.path or --datalog", err)
	}
	return fmt.Sprintf("its directory %s must be writable by your user, as SQLite keeps its -wal and -shm files there: fix its permissions, or set datalog.path or --datalog", dir)
}

// readable opens path to see whether it can be read, and returns why not.
func readable(path string) error {
	f, err := os.Open(path)
	if err != nil {
		if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			return pe.Err
		}
		return err
	}
	return f.Close()
}
