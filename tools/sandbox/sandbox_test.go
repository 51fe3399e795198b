package sandbox

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	Main() // the test binary plays the helper
	if os.Getenv(tryCloneEnv) != "" {
		os.Exit(tryClone()) // and a confined command (inproc_linux_test.go)
	}
	// A race-enabled helper would sleep a second at exit.
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	os.Exit(m.Run())
}

// run runs script under bash with spec, as run_command does: a read-only
// spec from a confined thread of this process where it can, anything
// else through the helper. It returns the combined output and exit code.
func run(t *testing.T, ctx context.Context, spec Spec, dir, script string) (string, int) {
	t.Helper()
	return runWith(t, ctx, &Runner{}, spec, dir, script)
}

// runWith is run with r's settings (HelperOnly).
func runWith(t *testing.T, ctx context.Context, r *Runner, spec Spec, dir, script string) (string, int) {
	t.Helper()
	var out bytes.Buffer
	cmd, done := command(t, ctx, r, spec, []string{"bash", "-c", script})
	defer done()
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
	err := r.Start(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	var exit interface{ ExitCode() int }
	code := 0
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("run %q: %v", script, err)
	}
	return out.String(), code
}

// command is argv as r runs it with spec: through ReadOnlyCommand for a
// read-only spec, Command otherwise. r.Exe is set to this test binary.
func command(t *testing.T, ctx context.Context, r *Runner, spec Spec, argv []string) (*exec.Cmd, func()) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r.Exe, r.Spec = exe, spec
	if !spec.ReadOnly {
		cmd, err := r.Command(ctx, argv)
		if err != nil {
			t.Fatal(err)
		}
		return cmd, func() {}
	}
	r.ReadOnlySpec = &spec
	cmd, done, err := r.ReadOnlyCommand(ctx, argv)
	if err != nil {
		t.Fatal(err)
	}
	return cmd, done
}

func TestExitCodeAndOutput(t *testing.T) {
	tests := []struct {
		script, out string
		code        int
	}{
		{"echo hi; echo err >&2", "hi\nerr\n", 0},
		{"exit 3", "", 3},
		{"kill -9 $$", "", 137},
		{"no-such-command-keel 2>/dev/null", "", 127},
	}
	for _, tc := range tests {
		out, code := run(t, context.Background(), Spec{}, t.TempDir(), tc.script)
		if out != tc.out || code != tc.code {
			t.Errorf("%q: got %q exit %d, want %q exit %d", tc.script, out, code, tc.out, tc.code)
		}
	}
}

// waitPID reads a pid a command wrote into file.
func waitPID(t *testing.T, file string) int {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(file)
		if pid, err2 := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && err2 == nil && pid > 0 {
			return pid
		}
	}
	t.Fatalf("no pid in %s", file)
	return 0
}

// gone reports that pid no longer exists (not even as a zombie).
func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

func TestLeftoverProcessesAreKilled(t *testing.T) {
	tests := map[string]string{
		"setsid -f":    "setsid -f bash -c 'echo $$ > pid; exec sleep 300' </dev/null >/dev/null 2>&1; sleep 0.2",
		"double fork":  "( (echo $BASHPID > pid; exec sleep 300) & ) ; sleep 0.2",
		"nohup &":      "nohup bash -c 'echo $$ > pid; exec sleep 300' >/dev/null 2>&1 & sleep 0.2",
		"new group":    "set -m; (echo $BASHPID > pid; exec sleep 300) & sleep 0.2",
		"grandchild":   "bash -c '(echo $BASHPID > pid; exec sleep 300) & disown' ; sleep 0.2",
		"ignores term": "setsid -f bash -c 'trap \"\" TERM HUP; echo $$ > pid; while :; do sleep 1; done' </dev/null >/dev/null 2>&1; sleep 0.2",
	}
	for name, script := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			_, code := run(t, context.Background(), Spec{}, dir, script)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			pid := waitPID(t, filepath.Join(dir, "pid"))
			if !gone(pid) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("process %d outlived its command", pid)
			}
		})
	}
}

func TestCancelKillsEverything(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		waitPID(t, filepath.Join(dir, "pid"))
		cancel()
	}()
	start := time.Now()
	_, code := run(t, ctx, Spec{}, dir, "setsid -f bash -c 'echo $$ > pid; exec sleep 300' </dev/null >/dev/null 2>&1; sleep 300")
	// The command sleeps 300 s: a cancel that waited for it would take that
	// long. The bound is far above TermGrace so a busy machine passes.
	if took := time.Since(start); took > time.Minute {
		t.Errorf("cancel took %s, as if it waited for the command", took)
	}
	if code == 0 {
		t.Errorf("a cancelled command exited 0")
	}
	if pid := waitPID(t, filepath.Join(dir, "pid")); !gone(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("process %d outlived the cancelled command", pid)
	}
}
