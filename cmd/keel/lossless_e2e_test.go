package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
)

// startKeel starts the binary headless with HOME at home; the caller
// waits for it.
func startKeel(t *testing.T, home, dir string, srv *llmtest.Server, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(keelBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=sk-lossless"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// integrityOK opens the datalog under home and runs integrity_check.
func integrityOK(t *testing.T, home string) {
	t.Helper()
	conn, err := sql.Open("sqlite", filepath.Join(home, "data", "keel", "keel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var check string
	if err := conn.QueryRowContext(context.Background(), "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
}

// Killed while a command with a visible effect runs, in the first round:
// the datalog still has the session and the call, keel log show lists it
// as unfinished, and keel -c tells the model its outcome is unknown.
func TestSIGKILLDuringAToolKeepsTheCall(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	for trial := range 3 {
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			home, dir := t.TempDir(), project(t)
			command := fmt.Sprintf("echo done > effect; sleep %d.%d; sleep 30", trial, trial*3)
			srv := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(llmtest.Call{ID: "call_fx", Name: "run_command",
				Args: fmt.Sprintf(`{"command":%q}`, command)})))
			cmd, out := startKeel(t, home, dir, srv, "-p", "make the effect", "--yolo", "--output-format", "json")
			waitFile(t, filepath.Join(dir, "effect"))
			time.Sleep(time.Duration(trial) * 150 * time.Millisecond)
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			integrityOK(t, home)
			show, errOut, code := runKeelHome(t, home, nil, dir, "", "log", "show", "--json", lastSessionID(t, home, dir))
			if code != 0 {
				t.Fatalf("keel log show: %d %s (keel printed %s)", code, errOut, out)
			}
			var d datalog.SessionDetail
			if err := json.Unmarshal([]byte(show), &d); err != nil || len(d.Unfinished) != 1 || d.Unfinished[0].CallID != "call_fx" {
				t.Fatalf("the killed call is not in the datalog: %v %s", err, show)
			}
			resumed := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("checked")))
			if _, errOut, code := runKeelHome(t, home, resumed, dir, "", "-c", "-p", "go on"); code != 0 {
				t.Fatalf("keel -c: %d %s", code, errOut)
			}
			if got := toolOutputs(resumed); !strings.Contains(got, "outcome unknown") {
				t.Errorf("the resumed history does not tell the model the call's outcome is unknown:\n%s", got)
			}
		})
	}
}

func waitFile(t *testing.T, p string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(p); err == nil {
			return
		}
	}
	t.Fatalf("%s never appeared", p)
}

// lastSessionID is the newest session's id from keel log --json.
func lastSessionID(t *testing.T, home, dir string) string {
	t.Helper()
	logOut, errOut, code := runKeelHome(t, home, nil, dir, "", "log", "--json")
	var list []struct {
		ID string `json:"id"`
	}
	if code != 0 || json.Unmarshal([]byte(logOut), &list) != nil || len(list) == 0 {
		t.Fatalf("keel log: %d %s %s", code, logOut, errOut)
	}
	return list[0].ID
}

// Eight keel processes started together on a fresh datalog all record
// their sessions, five times over.
func TestConcurrentFirstRunsAllRecorded(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	const procs, trials = 8, 5
	for trial := range trials {
		home, dir := t.TempDir(), project(t)
		srv := llmtest.Start(t, llmtest.Script{Handler: func(llmtest.RecordedRequest, int) llmtest.Round { return llmtest.TextRound("hi") }})
		var wg sync.WaitGroup
		ids := make([]string, procs)
		for i := range procs {
			wg.Go(func() {
				cmd, out := startKeel(t, home, dir, srv, "-p", "hello", "--output-format", "json")
				_ = cmd.Wait()
				var res struct {
					SessionID string `json:"session_id"`
				}
				if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.SessionID == "" {
					t.Errorf("trial %d: a run recorded no session: %s", trial, out)
				}
				ids[i] = res.SessionID
			})
		}
		wg.Wait()
		integrityOK(t, home)
		logOut, _, _ := runKeelHome(t, home, nil, dir, "", "log", "--json")
		for _, id := range ids {
			if id != "" && !strings.Contains(logOut, id) {
				t.Errorf("trial %d: session %s is not in keel log", trial, id)
			}
		}
	}
}

// holdLock takes the datalog's write lock from another connection until
// release is called.
func holdLock(t *testing.T, home string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(home, "data", "keel", "keel.db"))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

func writeCall(path string) llmtest.Round {
	return llmtest.ToolRound(llmtest.Call{Name: "write_file", Args: fmt.Sprintf(`{"path":%q,"content":"x\n"}`, path)})
}

// Another process holds the datalog's lock while task B runs: when the
// lock goes within the journal's wait, B's change is journaled, made and
// undone; when it is held until keel exits, or keel is killed while it
// waits, keel does not make the change undo could not restore (it stops
// with error_datalog), and undo refuses instead of undoing the older
// task A.
func TestLockedDatalogAndUndo(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	for _, mode := range []string{"released", "killed", "held"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			home, dir := t.TempDir(), project(t)
			srvA := llmtest.Start(t, llmtest.Rounds(writeCall("a.txt"), llmtest.TextRound("a")))
			if _, errOut, code := runKeelHome(t, home, srvA, dir, "", "-p", "write a", "--yolo"); code != 0 {
				t.Fatalf("task A: %d %s", code, errOut)
			}
			noteA := lastTaskNotes(t, home)
			release := holdLock(t, home)
			srvB := llmtest.Start(t, llmtest.Rounds(writeCall("b.txt"), llmtest.TextRound("b")))
			cmd, out := startKeel(t, home, dir, srvB, "-p", "write b", "--yolo", "--output-format", "json")
			switch mode {
			case "held":
				err := cmd.Wait()
				release()
				if err == nil || !strings.Contains(out.String(), `"subtype":"error_datalog"`) {
					t.Errorf("keel ended %v without error_datalog: %s", err, out)
				}
			case "killed":
				waitNoteChange(t, home, noteA) // B's tool is about to run: its change waits for the journal
				_ = cmd.Process.Signal(syscall.SIGKILL)
				_ = cmd.Wait()
				release()
			default:
				waitRequests(t, srvB, 1)
				release()
				if err := cmd.Wait(); err != nil {
					t.Fatalf("task B: %v %s", err, out)
				}
			}
			_, errB := os.Stat(filepath.Join(dir, "b.txt"))
			if mode != "released" && errB == nil {
				t.Fatalf("keel wrote b.txt while its datalog could not record it: %s", out)
			}
			undoOut, undoErr, code := runKeelHome(t, home, nil, dir, "", "undo")
			_, errA := os.Stat(filepath.Join(dir, "a.txt"))
			_, errB = os.Stat(filepath.Join(dir, "b.txt"))
			switch {
			case errA != nil:
				t.Fatalf("undo removed task A's file (exit %d): %s %s", code, undoOut, undoErr)
			case mode != "released" && (code == 0 || errB == nil || !strings.Contains(undoErr, "missing from the datalog")):
				t.Errorf("undo after a lost task: exit %d, b.txt there %v: %s %s", code, errB == nil, undoOut, undoErr)
			case mode == "released" && (code != 0 || errB == nil):
				t.Errorf("undo of task B: exit %d, b.txt removed %v: %s %s (keel printed %s)", code, errB != nil, undoOut, undoErr, out)
			}
		})
	}
}

// lastTaskNotes is the content of the last-task notes beside the datalog.
func lastTaskNotes(t *testing.T, home string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(home, "data", "keel", "last-task", "*"))
	var b strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		b.Write(data)
	}
	return b.String()
}

// waitNoteChange waits until the last-task notes differ from was.
func waitNoteChange(t *testing.T, home, was string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for lastTaskNotes(t, home) == was {
		if time.Now().After(deadline) {
			t.Fatal("the task never noted itself as the project's last")
		}
		waitRequestsSleep()
	}
}
