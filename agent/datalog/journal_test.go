package datalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func hexSum(b string) string {
	s := sha256.Sum256([]byte(b))
	return hex.EncodeToString(s[:])
}

// journal commits a pending change of /p/name in round seq of task 1.
func journal(t *testing.T, db *DB, sid string, seq int, name, before, after string) int64 {
	t.Helper()
	id, err := db.JournalChange(context.Background(), JournalEntry{SessionID: sid, Round: seq, TaskSeq: 1, CallID: "c" + name,
		Change: FileChange{Path: "/p/" + name, Existed: true, Before: []byte(before), Mode: 0o644,
			BeforeSHA256: hexSum(before), AfterSHA256: hexSum(after)}})
	if err != nil || id == 0 {
		t.Fatalf("JournalChange = %d, %v", id, err)
	}
	return id
}

// TestJournalLifecycle: a journaled change is pending (undo sees it,
// outcome unknown) until its round completes it; a call that changed
// nothing has its row dropped.
func TestJournalLifecycle(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	big := strings.Repeat("some line of code\n", 500)
	kept := journal(t, db, sid, 1, "kept", big, big+"more\n")
	dropped := journal(t, db, sid, 1, "dropped", "x", "y")
	journal(t, db, sid, 2, "inflight", "before", "after")

	fcs, err := db.TaskFileChanges(ctx, sid)
	if err != nil || len(fcs) != 3 || !fcs[0].Pending || string(fcs[0].Before) != big || fcs[0].After != nil {
		t.Fatalf("pending changes: %d, %v", len(fcs), err)
	}
	if paths, _ := db.JournaledPaths(ctx, "/p", 10); len(paths) != 3 {
		t.Errorf("JournaledPaths = %v, want the 3 pending files", paths)
	}
	rec := round(sid, 1, 1)
	rec.FileChanges = []FileChange{{JournalID: kept, ToolCallID: "ckept", Path: "/p/kept", Existed: true,
		Before: []byte(big), After: []byte(big + "more\n"), Mode: 0o644}}
	rec.DropJournal = []int64{dropped}
	mustWrite(t, db, rec)

	fcs, err = db.TaskFileChanges(ctx, sid)
	if err != nil || len(fcs) != 2 {
		t.Fatalf("after the round: %d changes, %v; want 2", len(fcs), err)
	}
	if c := fcs[0]; c.ID != kept || c.Pending || string(c.After) != big+"more\n" || c.AfterSHA256 != hexSum(big+"more\n") {
		t.Errorf("completed change: id %d pending %v after %d bytes", c.ID, c.Pending, len(c.After))
	}
	if c := fcs[1]; c.Path != "/p/inflight" || !c.Pending {
		t.Errorf("the change of the round keel died in: %s pending %v, want pending", c.Path, c.Pending)
	}
	if paths, _ := db.JournaledPaths(ctx, "/p", 10); len(paths) != 1 || paths[0] != "/p/inflight" {
		t.Errorf("JournaledPaths = %v, want only the pending one", paths)
	}
	if err := db.CheckLastTask(ctx, "/p"); err != nil {
		t.Errorf("a task whose changes are journaled is not missing: %v", err)
	}
}

// TestUndoRunIsJournaled: an undo that began and never finished is found
// by the next, with the changes it was reverting; finishing marks the
// done ones undone and releases the rest.
func TestUndoRunIsJournaled(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	a := journal(t, db, sid, 1, "a", "a0", "a1")
	b := journal(t, db, sid, 1, "b", "b0", "b1")
	if run, _, err := db.UnfinishedUndo(ctx, "/p"); run != nil || err != nil {
		t.Fatalf("an undo nobody began: %+v, %v", run, err)
	}
	id, err := db.BeginUndo(ctx, sid, 1, []int64{a, b})
	if err != nil {
		t.Fatal(err)
	}
	run, changes, err := db.UnfinishedUndo(ctx, "/p")
	if err != nil || run == nil || run.ID != id || len(changes) != 2 {
		t.Fatalf("UnfinishedUndo = %+v, %d changes, %v", run, len(changes), err)
	}
	if run, _, _ := db.UnfinishedUndo(ctx, "/elsewhere"); run != nil {
		t.Error("another project's undo was found")
	}
	if err := db.FinishUndo(ctx, id, []int64{a}); err != nil {
		t.Fatal(err)
	}
	if run, _, _ := db.UnfinishedUndo(ctx, "/p"); run != nil {
		t.Errorf("a finished undo is still open: %+v", run)
	}
	left, err := db.TaskFileChanges(ctx, sid)
	if err != nil || len(left) != 1 || left[0].ID != b {
		t.Errorf("after the undo, to undo: %+v, %v; want only b", left, err)
	}
}

// The directories a new file's write creates are journaled with it and
// come back to undo, kept through the round's commit.
func TestJournalKeepsNewDirectories(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	dirs := []string{"/p/new", "/p/new/deep"}
	id, err := db.JournalChange(ctx, JournalEntry{SessionID: sid, Round: 1, TaskSeq: 1, CallID: "c1",
		Change: FileChange{Path: "/p/new/deep/x.go", Mode: 0o644, NewDirs: dirs,
			BeforeSHA256: hexSum(""), AfterSHA256: hexSum("x\n")}})
	if err != nil {
		t.Fatal(err)
	}
	rec := round(sid, 1, 1)
	rec.FileChanges = []FileChange{{JournalID: id, ToolCallID: "c1", Path: "/p/new/deep/x.go", After: []byte("x\n"), Mode: 0o644}}
	mustWrite(t, db, rec)
	fcs, err := db.TaskFileChanges(ctx, sid)
	if err != nil || len(fcs) != 1 {
		t.Fatalf("%d changes, %v", len(fcs), err)
	}
	if got := strings.Join(fcs[0].NewDirs, " "); got != "/p/new /p/new/deep" {
		t.Errorf("new directories = %q, want %q", got, "/p/new /p/new/deep")
	}
}
