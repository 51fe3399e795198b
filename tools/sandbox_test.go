package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/tools/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Main() // the test binary plays the sandbox helper
	os.Setenv("GORACE", fastRaceExit[len("GORACE="):])
	os.Exit(m.Run())
}

// fastRaceExit keeps a race-enabled helper from sleeping a second at exit;
// tests that set a command's whole environment add it.
const fastRaceExit = "GORACE=atexit_sleep_ms=0"

// testRunner runs commands through this test binary as the helper, with
// writes confined to the workspace when landlock is set.
func testRunner(t testing.TB, landlock bool, writable ...string) *sandbox.Runner {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &sandbox.Runner{Exe: exe, Spec: sandbox.Spec{Landlock: landlock, Writable: writable}}
}

// Through the sandbox, run_command leaves no process behind and, with
// Landlock, cannot write outside the workspace even when the permission
// check was bypassed (here: the tool is called directly).
func TestRunCommandSandboxed(t *testing.T) {
	ws := newTestWS(t, nil)
	outside := nonTempDir(t)
	pidFile := filepath.Join(ws.Root(), "pid")
	opts := Options{Sandbox: testRunner(t, sandbox.Check() == nil, ws.Root(), "/dev/null")}
	res := call(t, ws, opts, NameRunCommand, m{"command": "setsid -f bash -c 'echo $$ > pid; exec sleep 300' </dev/null >/dev/null 2>&1; until [ -s pid ]; do sleep 0.05; done; echo ok"})
	wantOutput(t, res, false, "ok")
	if pid := waitForPID(t, pidFile); !processGone(pid) {
		t.Errorf("a setsid child (%d) outlived its command", pid)
	}
	if sandbox.Check() != nil {
		t.Skipf("no Landlock here: %v", sandbox.Check())
	}
	res = call(t, ws, opts, NameRunCommand, m{"command": "echo x > inside && echo y > " + filepath.Join(outside, "escaped")})
	if !res.IsError || !strings.Contains(res.Output, "Permission denied") {
		t.Errorf("a write outside the workspace was not refused:\n%s", res.Output)
	}
	if _, err := os.Stat(filepath.Join(outside, "escaped")); err == nil {
		t.Error("the command wrote outside the workspace")
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "inside")); err != nil {
		t.Errorf("the write inside the workspace failed: %v", err)
	}
}

func TestRunCommandSandboxRefuses(t *testing.T) {
	ws := newTestWS(t, nil)
	opts := Options{Sandbox: &sandbox.Runner{Refuse: "sandbox = \"on\" and this kernel has no Landlock"}}
	res := call(t, ws, opts, NameRunCommand, m{"command": "touch x"})
	wantOutput(t, res, true, "commands cannot run", "Landlock")
	if _, err := os.Stat(filepath.Join(ws.Root(), "x")); err == nil {
		t.Error("the command ran")
	}
}
