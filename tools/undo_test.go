package tools

import (
	"context"
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

// recorded turns a tool's changes into what undo gets from the datalog.
func recorded(changes []FileChange) []RecordedChange {
	out := make([]RecordedChange, len(changes))
	for i, c := range changes {
		out[i] = RecordedChange{FileChange: c, ID: int64(i + 1)}
	}
	return out
}

// undoAll undoes changes and fails the test unless every file is done.
func undoAll(t *testing.T, changes []FileChange) []FileOutcome {
	t.Helper()
	outs := Undo(recorded(changes))
	for _, o := range outs {
		if !o.Done && !strings.Contains(o.Left, "command") {
			t.Fatalf("%s left: %s", o.Path, o.Left)
		}
	}
	return outs
}

func TestUndo(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "one\n"})
	a := filepath.Join(ws.Root(), "a.go")
	must(t, os.Chmod(a, 0o600))
	changes := task(t, ws)
	if len(changes) != 3 {
		t.Fatalf("%d changes", len(changes))
	}
	outs := undoAll(t, changes)
	if len(outs) != 2 || len(outs[0].IDs) != 2 || outs[0].Already {
		t.Errorf("outcomes %+v", outs)
	}
	if got := readTestFile(t, a); got != "one\n" {
		t.Errorf("a.go = %q", got)
	}
	if fi, _ := os.Stat(a); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "new/b.go")); !os.IsNotExist(err) {
		t.Error("created file not removed")
	}
	// Again: every file is as it was already.
	for _, o := range undoAll(t, changes) {
		if !o.Already {
			t.Errorf("%s restored twice", o.Path)
		}
	}
}

// A file in any state the task left it in is restored; one changed since
// is left as it is, named with why, and the others are restored.
func TestUndoFromEveryState(t *testing.T) {
	for _, c := range []struct {
		name  string
		setA  string // a.go's content before undo ("" keeps the task's)
		wantA string
		left  string
	}{
		{"last state", "", "one\n", ""},
		{"middle state (an undo was killed)", "two\n", "one\n", ""},
		{"first state (already restored)", "one\n", "one\n", ""},
		{"changed since", "edited by hand\n", "edited by hand\n", "changed since keel wrote it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := newTestWS(t, map[string]string{"a.go": "one\n"})
			a := filepath.Join(ws.Root(), "a.go")
			changes := task(t, ws)
			if c.setA != "" {
				writeTestFile(t, a, c.setA)
			}
			outs := Undo(recorded(changes))
			if got := readTestFile(t, a); got != c.wantA {
				t.Errorf("a.go = %q, want %q", got, c.wantA)
			}
			if !strings.Contains(outs[0].Left, c.left) || (c.left == "") != outs[0].Done {
				t.Errorf("a.go outcome %+v", outs[0])
			}
			if !outs[1].Done {
				t.Errorf("new/b.go not restored beside a.go: %+v", outs[1])
			}
			if _, err := os.Stat(filepath.Join(ws.Root(), "new/b.go")); !os.IsNotExist(err) {
				t.Error("created file not removed")
			}
		})
	}
}

// recordingJournal keeps what the tools journal and can refuse.
type recordingJournal struct {
	got    []FileChange
	refuse error
}

func (j *recordingJournal) Record(_ context.Context, c FileChange) (int64, error) {
	if j.refuse != nil {
		return 0, j.refuse
	}
	j.got = append(j.got, c)
	return int64(len(j.got)), nil
}

// Every write is journaled before it happens, with the hash of what it
// will write; a journal that cannot record stops the write.
func TestWritesAreJournaledFirst(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "one\n"})
	j := &recordingJournal{}
	ws.SetJournal(j)
	changes := task(t, ws)
	if len(j.got) != 3 {
		t.Fatalf("journaled %d changes, want 3", len(j.got))
	}
	for i, c := range changes {
		jc := j.got[i]
		if c.JournalID != int64(i+1) || jc.After != nil || jc.AfterSHA256 != sha256Hex(c.After) || string(jc.Before) != string(c.Before) {
			t.Errorf("change %d: journaled %+v for %+v", i, jc, c)
		}
	}
	// As if keel died after the journal and before its round was
	// committed: undo has only the journal.
	pending := make([]RecordedChange, len(j.got))
	for i, c := range j.got {
		pending[i] = RecordedChange{FileChange: c, ID: int64(i + 1), Pending: true}
	}
	for _, o := range Undo(pending) {
		if !o.Done {
			t.Errorf("%s: %s", o.Path, o.Left)
		}
	}
	if got := readTestFile(t, filepath.Join(ws.Root(), "a.go")); got != "one\n" {
		t.Errorf("a.go = %q", got)
	}

	j.refuse = errors.New("the datalog cannot record (disk full)")
	call(t, ws, Options{}, NameReadFile, m{"path": "a.go"})
	res := call(t, ws, Options{}, NameEditFile, m{"path": "a.go", "old_string": "one", "new_string": "two"})
	if !res.IsError || !strings.Contains(res.Output, "disk full") || len(res.Changes) != 0 {
		t.Errorf("a refused journal: %+v", res)
	}
	if got := readTestFile(t, filepath.Join(ws.Root(), "a.go")); got != "one\n" {
		t.Errorf("a.go written without a journal: %q", got)
	}
}

// A journaled write that never happened (keel was killed first) leaves
// the file as it was: undo writes nothing.
func TestUndoPendingWriteThatNeverHappened(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "one\n"})
	a := filepath.Join(ws.Root(), "a.go")
	c := RecordedChange{ID: 1, Pending: true, FileChange: FileChange{Path: a, Existed: true, Before: []byte("one\n"),
		Mode: 0o644, BeforeSHA256: sha256Hex([]byte("one\n")), AfterSHA256: sha256Hex([]byte("two\n"))}}
	outs := Undo([]RecordedChange{c})
	if !outs[0].Done || !outs[0].Already {
		t.Errorf("outcome %+v", outs[0])
	}
}

func TestUndoLeavesWhatItCannotWrite(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "one\n"})
	changes := recorded(task(t, ws))
	changes[0].Withheld = "it held a secret (API_KEY), which keel stored only redacted"
	outs := Undo(changes)
	if outs[0].Done || !strings.Contains(outs[0].Left, "API_KEY") || !outs[1].Done {
		t.Errorf("outcomes %+v", outs)
	}
	// A later change's withheld content is never written: not needed.
	ws2 := newTestWS(t, map[string]string{"a.go": "one\n"})
	changes = recorded(task(t, ws2))
	changes[1].Withheld = "it held a secret"
	if outs := Undo(changes); !outs[0].Done {
		t.Errorf("outcomes %+v", outs)
	}
}

func TestStaleTempsAreRemoved(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "one\n"})
	a := filepath.Join(ws.Root(), "a.go")
	dead := filepath.Join(ws.Root(), ".a.go"+tempMark+"999999999-abc")
	mine := filepath.Join(ws.Root(), "."+filepath.Base(tempName("a.go")))
	other := filepath.Join(ws.Root(), ".b.go"+tempMark+"999999999-abc")
	for _, p := range []string{dead, mine, other} {
		writeTestFile(t, p, "partial")
	}
	got := RemoveStaleTemps([]string{a})
	if len(got) != 1 || got[0] != dead {
		t.Errorf("removed %v, want only %s", got, dead)
	}
	for _, p := range []string{mine, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", p, err)
		}
	}
}
