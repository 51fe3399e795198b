package datalog

import (
	"context"
	"testing"
	"time"
)

// TestUndoneSinceLastRound: undone changes are reported until a round
// starts after the undo (the round that told the model).
func TestUndoneSinceLastRound(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p", Cwd: "/p"})
	rec := round(sid, 1, 1, tc("c1", "edit_file", nil, false))
	rec.FileChanges = []FileChange{
		{TaskSeq: 1, ToolCallID: "c1", Path: "/p/a.go", Existed: true, Before: []byte("a"), After: []byte("b")},
		{TaskSeq: 1, ToolCallID: "c1", Path: "/p/a.go", Existed: true, Before: []byte("b"), After: []byte("c")},
		{TaskSeq: 1, ToolCallID: "c1", Path: "/p/gen.go", ByCommand: true},
	}
	mustWrite(t, db, rec)
	if got, err := db.UndoneSinceLastRound(ctx, sid); err != nil || len(got) != 0 {
		t.Fatalf("before undo: %v, %v", got, err)
	}
	changes, err := db.TaskFileChanges(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(changes))
	for i, c := range changes {
		ids[i] = c.ID
	}
	markUndone(t, db, sid, ids)
	got, err := db.UndoneSinceLastRound(ctx, sid)
	want := []UndoneChange{{TaskSeq: 1, Path: "/p/a.go"}, {TaskSeq: 1, Path: "/p/gen.go", ByCommand: true}}
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("after undo = %+v, %v; want %+v", got, err, want)
	}
	later := round(sid, 2, 2)
	later.Round.Started = time.Now().Add(time.Hour)
	mustWrite(t, db, later)
	if got, err := db.UndoneSinceLastRound(ctx, sid); err != nil || len(got) != 0 {
		t.Errorf("after a later round: %+v, %v; want none", got, err)
	}
}
