package datalog

import (
	"context"
	"testing"
)

// A large write whose content after is not kept (AfterNotKept) stores the
// caller's hash of it, and the transcript loads no contents for it: its
// diff is left out rather than shown as the file emptied.
func TestAfterNotKeptKeepsTheHashAndNoDiff(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	hash := "f700d877ef5fad567e6f5b66251227689a4e2db10e61595ba0f44a681913bd01"
	r := round(sid, 1, 1, tc("c1", "write_file", map[string]string{"path": "a.go"}, false))
	r.FileChanges = []FileChange{{ToolCallID: "c1", Path: "/p/a.go", Existed: true, Before: []byte("package a\n"),
		AfterNotKept: true, AfterSHA256: hash}}
	if err := db.WriteRound(ctx, r); err != nil {
		t.Fatal(err)
	}
	d, err := db.LoadTranscript(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	fc := d.Rounds[0].FileChanges[0]
	if fc.AfterSHA256 != hash || fc.BeforeSHA256 != sha256Hex([]byte("package a\n")) {
		t.Errorf("hashes stored: before %s after %s", fc.BeforeSHA256, fc.AfterSHA256)
	}
	if fc.Before != nil || fc.After != nil {
		t.Errorf("the transcript loaded contents for a change whose after was not kept: %q -> %q", fc.Before, fc.After)
	}
}
