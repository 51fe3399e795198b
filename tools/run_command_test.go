package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools/sandbox"
)

// TestRunCommand runs every case directly and through the sandbox.
func TestRunCommand(t *testing.T) {
	for name, sb := range map[string]*sandbox.Runner{"direct": nil, "sandboxed": testRunner(t, false)} {
		t.Run(name, func(t *testing.T) { testRunCommand(t, sb) })
	}
}

func testRunCommand(t *testing.T, sb *sandbox.Runner) {
	ws := newTestWS(t, map[string]string{"sub dir/f.txt": "x"})
	opts := Options{
		Env:            []string{"PATH=" + os.Getenv("PATH"), "KEEL_API_KEY=sk-1", "OTHER_NAME=sk-2", "HOME=/h", "KEEP=yes", fastRaceExit},
		SecretEnvNames: []string{"KEEL_API_KEY"},
		SecretValues:   []string{"sk-2", ""},
		Sandbox:        sb,
	}
	killed := -1 // the exit code of a command killed at its timeout
	if sb != nil {
		killed = 128 + int(syscall.SIGKILL)
	}
	tests := []struct {
		name  string
		args  m
		isErr bool
		code  int
		want  []string
		not   []string
	}{
		{"echo", m{"command": "echo hello"}, false, 0, []string{"hello\n[exit code 0"}, nil},
		{"exit code", m{"command": "echo out; echo err >&2; exit 3"}, true, 3, []string{"out\n", "err\n", "[exit code 3"}, nil},
		{"runs in root", m{"command": "pwd"}, false, 0, []string{ws.Root() + "\n"}, nil},
		{"workdir", m{"command": "ls", "workdir": "sub dir"}, false, 0, []string{"f.txt"}, nil},
		{"bad workdir", m{"command": "ls", "workdir": "nope"}, true, 0, []string{"workdir nope is not a directory"}, nil},
		{"stdin closed", m{"command": "cat; echo done"}, false, 0, []string{"done"}, nil},
		{"secrets removed", m{"command": "env"}, false, 0, []string{"KEEP=yes", "GIT_PAGER=cat"}, []string{"sk-1", "sk-2", "KEEL_API_KEY"}},
		{"no output", m{"command": "true"}, false, 0, []string{"(no output)"}, nil},
		{"timeout", m{"command": "echo started; sleep 20", "timeout_seconds": 1}, true, killed, []string{"started", "timed out after 1s"}, nil},
		{"timeout clamped", m{"command": "true", "timeout_seconds": 9000}, false, 0, []string{"lowered to the maximum, 600"}, nil},
		{"negative timeout", m{"command": "true", "timeout_seconds": -1}, true, 0, []string{"must be positive"}, nil},
		{"empty", m{"command": "  "}, true, 0, []string{"command is required"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, ws, opts, NameRunCommand, tc.args)
			wantOutput(t, res, tc.isErr, tc.want...)
			for _, s := range tc.not {
				if strings.Contains(res.Output, s) {
					t.Errorf("output has %q:\n%s", s, res.Output)
				}
			}
			if res.ExitCode != nil && *res.ExitCode != tc.code {
				t.Errorf("exit code %d, want %d", *res.ExitCode, tc.code)
			}
		})
	}
}

func TestRunCommandOutputCapped(t *testing.T) {
	ws := newTestWS(t, nil)
	res := call(t, ws, Options{MaxCommandOutput: 4000}, NameRunCommand, m{"command": "seq 1 100000"})
	wantOutput(t, res, false, "1\n2\n3\n", "100000\n", "lines) cut ...]")
	if len(res.Output) > 5000 {
		t.Errorf("output is %d bytes", len(res.Output))
	}
}

func TestCapWriterCounts(t *testing.T) {
	c := newCapWriter(20) // head 5, tail 15
	for range 100 {
		c.Write([]byte("abc\n"))
	}
	got := c.String()
	if !strings.HasPrefix(got, "abc\na\n[... 380 bytes (95 lines) cut ...]\n") || !strings.HasSuffix(got, "\nabc\nabc\nabc\n") {
		t.Errorf("got %q", got)
	}
}

// Cancelling the context kills the whole process group, background
// children included, and Run returns promptly.
func TestRunCommandCancelKillsGroup(t *testing.T) {
	ws := newTestWS(t, nil)
	pidFile := filepath.Join(t.TempDir(), "pid")
	tool, _ := Lookup(New(ws, Options{}), NameRunCommand)
	args, _ := json.Marshal(m{"command": "sleep 30 & echo $! > " + pidFile + "; wait"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result, 1)
	go func() {
		res, _ := tool.Run(ctx, args)
		done <- res
	}()
	pid := waitForPID(t, pidFile)
	cancel()
	select {
	case res := <-done:
		wantOutput(t, res, true, "cancelled")
	case <-time.After(time.Minute):
		t.Fatal("Run did not return after cancel")
	}
	deadline := time.Now().Add(time.Minute)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("sleep %d still alive after cancel", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// processGone reports a process that no longer exists or is a zombie
// waiting for a parent (in containers, pid 1 may never reap it).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return os.IsNotExist(err)
	}
	_, after, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(after, "Z")
}

// waitForPID polls for the file the command writes once its child runs.
func waitForPID(t *testing.T, p string) int {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(p); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err == nil {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the command never started")
	return 0
}
