package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/keel-dev/keel/agent/datalog"
)

// openDatalogPath opens the datalog at path for a command. A read-only
// open of a datalog a first run left unfinished (killed while creating
// it) sets it up first, as that run would have, so keel log works
// whatever state the interrupted run left.
func openDatalogPath(path string, readOnly bool) (*datalog.DB, error) {
	opts := datalog.Options{ReadOnly: readOnly, Environ: os.Environ()}
	db, err := datalog.Open(path, opts)
	if !readOnly || !errors.Is(err, datalog.ErrNotSetUp) {
		return db, err
	}
	w, werr := datalog.Open(path, datalog.Options{Environ: os.Environ()})
	if werr != nil {
		return nil, fmt.Errorf("the datalog %s was left unfinished by a keel that stopped while creating it, and it cannot be set up now: %w", path, werr)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("set up the datalog %s: %w", path, err)
	}
	return datalog.Open(path, opts)
}
