package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// seedDatalog runs keel once (one round) on a new datalog and returns a
// directory holding the datalog it left, for the measured runs to start
// from: a user's keel opens an existing datalog, and creating the schema
// (about 8 ms of CPU, once per machine) is not a round's cost.
func seedDatalog(ctx context.Context, keel string) (string, error) {
	w := Workload{Rounds: 1, FreshDatalog: true}
	dir, err := os.MkdirTemp("", "keelbench-seed-")
	if err != nil {
		return "", fmt.Errorf("create a temp dir: %w", err)
	}
	d, err := makeDirs(false)
	defer os.RemoveAll(d.Root)
	if err != nil {
		return dir, err
	}
	abs, err := filepath.Abs(keel)
	if err != nil {
		return dir, err
	}
	if _, err := runIn(ctx, abs, w, d); err != nil {
		return dir, fmt.Errorf("the run that makes the seed datalog: %w", err)
	}
	return dir, copyDir(filepath.Dir(d.Datalog()), dir)
}

// copyDir copies the regular files of src into dst (created if missing).
func copyDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}
