package datalog

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentOpenChild is one of the processes of
// TestConcurrentFirstOpen: it opens the datalog, records a session with
// one round and prints the session's id.
func TestConcurrentOpenChild(t *testing.T) {
	path := os.Getenv("DATALOG_CONCURRENT_DB")
	if path == "" {
		t.Skip("run by TestConcurrentFirstOpen")
	}
	db, err := Open(path, Options{})
	if err != nil {
		fmt.Println("ERROR open:", err)
		return
	}
	sid, err := db.StartSession(context.Background(), Session{ProjectRoot: "/concurrent"})
	if err == nil {
		err = db.WriteRound(context.Background(), round(sid, 1, 1))
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Println("ERROR write:", err)
		return
	}
	fmt.Println("SESSION", sid)
}

// Processes started together on a fresh path all record their sessions:
// the migrations are serialised and idempotent.
func TestConcurrentFirstOpen(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	if testing.Short() {
		t.Skip("starts child processes")
	}
	const procs, trials = 8, 5
	for trial := range trials {
		path := filepath.Join(t.TempDir(), "keel.db")
		outs := make([]string, procs)
		var wg sync.WaitGroup
		for i := range procs {
			wg.Go(func() {
				child := exec.Command(os.Args[0], "-test.run=^TestConcurrentOpenChild$", "-test.v=false")
				child.Env = append(os.Environ(), "DATALOG_CONCURRENT_DB="+path)
				out, _ := child.CombinedOutput()
				outs[i] = string(out)
			})
		}
		wg.Wait()
		var ids []string
		for i, out := range outs {
			_, id, ok := strings.Cut(out, "SESSION ")
			if !ok {
				t.Errorf("trial %d, process %d recorded nothing: %s", trial, i, out)
				continue
			}
			ids = append(ids, strings.Fields(id)[0])
		}
		checkSessions(t, path, ids)
	}
}

// checkSessions asserts every id has its session and round, and the
// database is intact.
func checkSessions(t *testing.T, path string, ids []string) {
	t.Helper()
	db, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ok string
	if err := db.read.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Errorf("integrity_check: %q %v", ok, err)
	}
	for _, id := range ids {
		var rounds int
		if err := db.read.QueryRow(`SELECT COUNT(*) FROM rounds WHERE session_id = ?`, id).Scan(&rounds); err != nil || rounds != 1 {
			t.Errorf("session %s has %d rounds (%v)", id, rounds, err)
		}
	}
}
