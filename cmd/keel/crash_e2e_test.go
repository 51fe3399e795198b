package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	_ "modernc.org/sqlite"
)

// keel is killed the moment its fourth request arrives: the third round
// was committed before that request left, and keel log, the next to open
// the datalog, lists the session as interrupted with its three rounds.
func TestSIGKILLLeavesAConsistentListableDatalog(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	home, dir := t.TempDir(), project(t)
	var pid atomic.Int64
	handler := func(_ llmtest.RecordedRequest, n int) llmtest.Round {
		if p := int(pid.Load()); n >= 3 && p > 0 {
			_ = syscall.Kill(p, syscall.SIGKILL)
			return llmtest.Round{Text: "slow", Hang: true}
		}
		return llmtest.ToolRound(llmtest.Call{Name: "glob", Args: `{"pattern":"*` + string(rune('a'+n)) + `*"}`})
	}
	srv := llmtest.Start(t, llmtest.Script{Handler: handler})
	cmd := exec.Command(keelBinary(t), "-p", "glob around", "--output-format", "json")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=sk-kill"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid.Store(int64(cmd.Process.Pid))
	_ = cmd.Wait()
	if n := len(srv.Requests()); n != 4 {
		t.Fatalf("keel sent %d requests before it was killed, want 4: %s", n, out.String())
	}

	db := filepath.Join(home, "data", "keel", "keel.db")
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	var check string
	if err := conn.QueryRowContext(context.Background(), "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	conn.Close()

	logOut, errOut, code := runKeelHome(t, home, nil, dir, "", "log", "--json")
	if code != 0 {
		t.Fatalf("keel log after SIGKILL: %d %s", code, errOut)
	}
	var list []struct {
		StopReason string `json:"stop_reason"`
		Totals     struct {
			Rounds int `json:"rounds"`
		} `json:"totals"`
	}
	if err := json.Unmarshal([]byte(logOut), &list); err != nil || len(list) != 1 {
		t.Fatalf("log: %v %s", err, logOut)
	}
	if list[0].StopReason != "interrupted" || list[0].Totals.Rounds < 3 {
		t.Errorf("killed session listed as %+v, want interrupted with the 3 stored rounds", list[0])
	}
}

// waitRequests waits until the server has received n requests.
func waitRequests(t *testing.T, srv *llmtest.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for len(srv.Requests()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d requests arrived", len(srv.Requests()))
		}
		waitRequestsSleep()
	}
}

func waitRequestsSleep() { time.Sleep(20 * time.Millisecond) }

// TestUnwritableDatalogIsNoSuccess: a datalog that cannot be opened is
// said once, with what to do; read-only tools still run and the answer
// is printed, but the task does not end "success" with nothing recorded.
func TestUnwritableDatalogIsNoSuccess(t *testing.T) {
	// A path under a regular file cannot be created, even by root (for
	// whom a read-only directory would still be writable).
	dir := project(t)
	blocker := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(blocker, []byte("x"), 0o444); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(llmtest.Call{Name: "list_dir", Args: `{"path":"."}`}), llmtest.TextRound("listed")))
	out, errOut, code := runKeel(t, srv, dir, "", "-p", "list", "--datalog", filepath.Join(blocker, "keel.db"), "--output-format", "json")
	if code == 0 || !strings.Contains(out, `"subtype":"error_datalog"`) || !strings.Contains(out, `"result":"listed"`) {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "--datalog") {
		t.Errorf("want a datalog line saying what to do on stderr, got %q", errOut)
	}
}
