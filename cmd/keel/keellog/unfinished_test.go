package keellog

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
)

// keel log show lists the calls keel was killed while running.
func TestShowListsUnfinishedCalls(t *testing.T) {
	db, err := datalog.Open(filepath.Join(t.TempDir(), "keel.db"), datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sid := startTest(t, db, datalog.Session{ProjectRoot: "/p"})
	mustWrite(t, db, round(sid, 1, 1, tc("c1", "read_file", args{"path": "a"}, false)))
	in := datalog.Intent{SessionID: sid, Round: 2, CallID: "c2", Name: "run_command", Arguments: `{"command":"make c3"}`, Started: t0}
	if err := db.WriteIntent(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	d, err := db.LoadSession(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	printSession(&out, &related{SessionDetail: d})
	for _, want := range []string{"round 2  not finished", "make c3", "outcome unknown"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("keel log show lacks %q:\n%s", want, out.String())
		}
	}
}
