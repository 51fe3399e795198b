package datalog

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestCrashWriter is the child of TestSIGKILLLeavesConsistentDB: it writes
// rounds until killed, printing the number of each committed round.
func TestCrashWriter(t *testing.T) {
	path := os.Getenv("DATALOG_CRASH_DB")
	if path == "" {
		t.Skip("run by TestSIGKILLLeavesConsistentDB")
	}
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sid, err := db.StartSession(context.Background(), Session{ProjectRoot: "/crash"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; ; i++ {
		rec := benchRound(sid, i)
		rec.FileChanges = []FileChange{{Path: "/f", Before: make([]byte, 8<<10), After: make([]byte, 8<<10)}}
		write := db.WriteRound
		if os.Getenv("DATALOG_CRASH_QUEUE") != "" {
			write = func(ctx context.Context, rec RoundRecord) error { return db.QueueRound(ctx, rec)() }
		}
		if err := write(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		fmt.Println(i)
	}
}

// A keel killed while writing leaves a consistent database, holding
// every round it had stored, whether it waited in WriteRound or in
// QueueRound's wait, as the agent does before its next request.
func TestSIGKILLLeavesConsistentDB(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for _, mode := range []string{"commit", "queue"} {
		for _, killAfter := range []int{1, 40, 300} {
			t.Run(fmt.Sprint(mode, killAfter), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "keel.db")
				child := exec.Command(os.Args[0], "-test.run=^TestCrashWriter$", "-test.v=false")
				child.Env = append(os.Environ(), "DATALOG_CRASH_DB="+path)
				if mode == "queue" {
					child.Env = append(child.Env, "DATALOG_CRASH_QUEUE=1")
				}
				out, err := child.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := child.Start(); err != nil {
					t.Fatal(err)
				}
				stored := waitForRound(out, killAfter)
				child.Process.Kill() // SIGKILL
				child.Wait()
				checkAfterCrash(t, path, stored)
			})
		}
	}
}

// waitForRound reads the child's output until round n is committed.
func waitForRound(out interface{ Read([]byte) (int, error) }, n int) int {
	sc := bufio.NewScanner(out)
	last := 0
	for last < n && sc.Scan() {
		fmt.Sscan(sc.Text(), &last)
	}
	return last
}

func checkAfterCrash(t *testing.T, path string, committed int) {
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ok string
	if err := db.read.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check = %q, %v", ok, err)
	}
	list, err := db.ListSessions(context.Background(), Filter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions = %v, %v", list, err)
	}
	s := list[0]
	if s.StopReason != StopInterrupted || s.Totals.Rounds < committed {
		t.Errorf("session = %s with %d rounds; want interrupted with at least the %d committed", s.StopReason, s.Totals.Rounds, committed)
	}
	if _, err := db.LoadHistory(context.Background(), s.ID); err != nil {
		t.Errorf("history after crash: %v", err)
	}
}
