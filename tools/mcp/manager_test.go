package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/tools/sandbox"
)

func TestStdioServerToolsAndCalls(t *testing.T) {
	m, _ := newManager(t, Options{}, stdioServer("test", nil))
	started(t, m)
	want := "mcp__list_resources mcp__read_resource mcp__test__crash mcp__test__echo mcp__test__env mcp__test__fail mcp__test__hang mcp__test__huge mcp__test__image mcp__test__noisy mcp__test__odd_name_with_chars mcp__test__progress mcp__test__spawn"
	got := strings.Fields(memberNames(m))
	if strings.Join(sorted(got), " ") != want {
		t.Fatalf("members = %v, want %s", got, want)
	}
	ctx := context.Background()
	tests := []struct {
		tool, args, want string
		isErr            bool
	}{
		{"mcp__test__echo", `{"text":"hi"}`, "echo: hi", false},
		{"mcp__test__odd_name_with_chars", `{"text":"odd"}`, "echo: odd", false},
		{"mcp__test__fail", ``, "it failed on purpose", true},
		{"mcp__test__echo", `{"text":3}`, "", true}, // the server rejects the arguments
	}
	for _, tt := range tests {
		t.Run(tt.tool+tt.args, func(t *testing.T) {
			res := call(t, ctx, m, tt.tool, tt.args)
			if res.IsError != tt.isErr || !strings.Contains(res.Output, tt.want) {
				t.Errorf("result = %+v, want error %v containing %q", res, tt.isErr, tt.want)
			}
		})
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestClassesTrustReadOnlyOnlyWhenAsked(t *testing.T) {
	trusted := stdioServer("trusted", nil)
	trusted.TrustReadOnly = true
	m, _ := newManager(t, Options{}, stdioServer("plain", nil), trusted)
	started(t, m)
	tests := []struct {
		name string
		want tools.Class
	}{
		{"mcp__plain__echo", tools.Execute},
		{"mcp__trusted__echo", tools.ReadOnly},
		{"mcp__trusted__crash", tools.Execute},
	}
	for _, tt := range tests {
		tool, ok := m.Member(tt.name)
		if !ok || tool.Class() != tt.want {
			t.Errorf("%s: class %v (found %v), want %v", tt.name, tool.Class(), ok, tt.want)
		}
	}
}

func TestEnvironmentIsScrubbedButServerEnvGiven(t *testing.T) {
	t.Setenv("KEEL_TEST_OWN_TOKEN", "from-keel")
	m, _ := newManager(t, Options{Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=/nowhere"}},
		stdioServer("test", map[string]string{"GITHUB_TOKEN": "given", "FROM_KEEL": "${KEEL_TEST_OWN_TOKEN}", "LITERAL": "a$b"}))
	ctx := context.Background()
	tests := []struct{ name, want string }{
		{"GITHUB_TOKEN", "GITHUB_TOKEN=given"},
		{"FROM_KEEL", "FROM_KEEL=from-keel"},
		{"LITERAL", "LITERAL=a$b"},
		{"KEEL_TEST_OWN_TOKEN", "KEEL_TEST_OWN_TOKEN is not set"}, // not in the base environment keel gives
		{"HOME", "HOME=/nowhere"},
	}
	for _, tt := range tests {
		res := call(t, ctx, m, "mcp__test__env", `{"name":"`+tt.name+`"}`)
		if res.Output != tt.want {
			t.Errorf("env %s = %q, want %q", tt.name, res.Output, tt.want)
		}
	}
}

func TestHangingCallTimesOutAndSaysSo(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "marker")
	srv := stdioServer("test", map[string]string{"KEEL_MCPTEST_MARKER": marker})
	srv.CallTimeout = 300 * time.Millisecond
	m, _ := newManager(t, Options{}, srv)
	res := call(t, context.Background(), m, "mcp__test__hang", `{}`)
	if !res.IsError || !strings.Contains(res.Output, "did not answer within 300ms") || !strings.Contains(res.Output, "call_timeout") {
		t.Fatalf("result = %+v, want a timeout naming call_timeout", res)
	}
	waitFile(t, marker, "cancelled")
	if res := call(t, context.Background(), m, "mcp__test__echo", `{"text":"after"}`); res.Output != "echo: after" {
		t.Errorf("the server should still answer after a timed-out call: %+v", res)
	}
}

func TestCancellationReachesTheServer(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "marker")
	m, _ := newManager(t, Options{}, stdioServer("test", map[string]string{"KEEL_MCPTEST_MARKER": marker}))
	started(t, m)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		res := call(t, ctx, m, "mcp__test__hang", `{}`)
		if !res.IsError || !strings.Contains(res.Output, "cancelled") {
			t.Errorf("result = %+v, want cancelled", res)
		}
	}()
	time.Sleep(100 * time.Millisecond) // let the call reach the server; the marker proves it did
	cancel()
	<-done
	waitFile(t, marker, "cancelled")
}

// waitFile waits for a file to hold want; the deadline only keeps a
// broken test from hanging.
func waitFile(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && string(b) == want {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never held %q", path, want)
}

func TestCrashIsReportedOnceAndRestartedOnNextUse(t *testing.T) {
	m, n := newManager(t, Options{}, stdioServer("test", nil))
	ctx := context.Background()
	res := call(t, ctx, m, "mcp__test__crash", `{}`)
	if !res.IsError || !strings.Contains(res.Output, "stopped during the call") || !strings.Contains(res.Output, "exit status 3") {
		t.Fatalf("crash result = %+v", res)
	}
	if got := n.wait(t); !strings.Contains(got, `MCP server "test" stopped (exit status 3)`) {
		t.Errorf("notice = %q", got)
	}
	st := m.Status(5)[0]
	if st.State != StateStopped || !strings.Contains(st.Stderr, "crashing on purpose") || len(st.Tools) == 0 {
		t.Errorf("status after the crash = %+v", st)
	}
	if res := call(t, ctx, m, "mcp__test__echo", `{"text":"back"}`); res.Output != "echo: back" {
		t.Fatalf("call after the crash = %+v, want the server restarted", res)
	}
	if st := m.Status(0)[0]; st.State != StateReady || st.Starts != 2 {
		t.Errorf("status after the restart = %v, %d starts", st.State, st.Starts)
	}
	if got := n.all(); len(got) != 1 {
		t.Errorf("notices = %q, want exactly one", got)
	}
}

func TestHugeOutputIsCapped(t *testing.T) {
	m, _ := newManager(t, Options{MaxOutput: 4096}, stdioServer("test", nil))
	res := call(t, context.Background(), m, "mcp__test__huge", `{"bytes":2000000}`)
	if len(res.Output) > 4096 || !strings.Contains(res.Output, "cut by keel") || !strings.HasPrefix(res.Output, "xxx") {
		t.Errorf("output is %d bytes: %.200q", len(res.Output), res.Output)
	}
}

// The server's grandchild starts its own session, out of reach of a
// process-group kill; keel's sandbox helper, which runs the server,
// still kills it.
func TestCloseKillsEverythingTheServerStarted(t *testing.T) {
	n := newNotices()
	helper := func(argv []string) (*exec.Cmd, error) {
		return (&sandbox.Runner{Exe: os.Args[0]}).Command(context.Background(), argv)
	}
	m := New([]ServerConfig{stdioServer("test", nil)}, Options{Env: []string{"PATH=" + os.Getenv("PATH")}, Notify: n.add, Command: helper})
	res := call(t, context.Background(), m, "mcp__test__spawn", `{}`)
	var pid int
	if _, err := fmtSscan(res.Output, &pid); err != nil || pid <= 0 {
		t.Fatalf("spawn = %+v", res)
	}
	m.Close()
	deadline := time.Now().Add(time.Minute)
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the grandchild %d outlived Close", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(n.all()) != 0 {
		t.Errorf("closing reported %q", n.all())
	}
}

// zombie reports a process that has exited but was not reaped yet (its
// parent, the killed server, is gone; init reaps it soon).
func zombie(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat"))
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(rest, "Z")
}
