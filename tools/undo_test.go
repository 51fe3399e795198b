package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// task makes the changes of one user task through the tools.
func task(t *testing.T, ws *Workspace) []FileChange {
	var changes []FileChange
	call(t, ws, Options{}, NameReadFile, m{"path": "a.go"})
	for _, r := range []Result{
		call(t, ws, Options{}, NameEditFile, m{"path": "a.go", "old_string": "one", "new_string": "two"}),
		call(t, ws, Options{}, NameEditFile, m{"path": "a.go", "old_string": "two", "new_string": "three"}),
		call(t, ws, Options{}, NameWriteFile, m{"path": "new/b.go", "content": "b\n"}),
	} {
		if r.IsError {
			t.Fatal(r.Output)
		}
		changes = append(changes, r.Changes...)
	}
	return changes
}

func TestRestore(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "one\n"})
	a := filepath.Join(ws.Root(), "a.go")
	must(t, os.Chmod(a, 0o600))
	changes := task(t, ws)
	if len(changes) != 3 {
		t.Fatalf("%d changes", len(changes))
	}
	must(t, Restore(changes))
	if got := readTestFile(t, a); got != "one\n" {
		t.Errorf("a.go = %q", got)
	}
	if fi, _ := os.Stat(a); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "new/b.go")); !os.IsNotExist(err) {
		t.Error("created file not removed")
	}
}

func TestRestoreRefusesChangedFiles(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "one\n"})
	changes := task(t, ws)
	writeTestFile(t, filepath.Join(ws.Root(), "new/b.go"), "edited by hand\n")
	err := Restore(changes)
	if !errors.Is(err, ErrChangedSince) || !strings.Contains(err.Error(), "new/b.go") || strings.Contains(err.Error(), "a.go") {
		t.Fatalf("err = %v", err)
	}
	if got := readTestFile(t, filepath.Join(ws.Root(), "a.go")); got != "three\n" {
		t.Errorf("a.go restored despite the refusal: %q", got)
	}
	must(t, os.Remove(filepath.Join(ws.Root(), "a.go")))
	if err := Restore(changes); err == nil || !strings.Contains(err.Error(), "a.go (deleted)") {
		t.Errorf("err = %v", err)
	}
}
