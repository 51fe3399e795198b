package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/shellcmd"
)

// The permission question for an edit names the file once, at 80×24 and
// 120×40 (issue 32 leftovers: the policy's reason "edit_file changes
// main.go" stood over the path main.go).
func TestPermissionQuestionNamesThePathOnce(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := newTestModel(t, sz[0], sz[1])
			prompt(m, "print one")
			askPending(t, m, agent.PermissionRequest{CallID: "e1", Tool: "edit_file", Summary: "main.go",
				Args:   `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { println(1) }"}`,
				Reason: "edit_file changes main.go", Grant: "edit_file: all edits this session"})
			got := plain(m)
			box := got[strings.Index(got, "Allow edit_file?"):]
			if n := strings.Count(box, "main.go"); n != 1 {
				t.Fatalf("the question names main.go %d times, want once:\n%s", n, got)
			}
			golden(t, m, fmt.Sprintf("permission_edit_%dx%d", sz[0], sz[1]))
		})
	}
}

// A read outside the workspace names its path once too: in the reason,
// as the policy resolved it, with "s covers" saying "this path".
func TestOutsideReadQuestionNamesThePathOnce(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := newTestModel(t, sz[0], sz[1])
			prompt(m, "read the hosts file")
			askPending(t, m, agent.PermissionRequest{CallID: "r1", Tool: "read_file", Summary: "../../etc/hosts",
				Args: `{"path":"../../etc/hosts"}`, Reason: "reads outside the workspace: /etc/hosts",
				Grant: "read_file: /etc/hosts and below, outside the workspace"})
			got := plain(m)
			box := got[strings.Index(got, "Allow read_file?"):]
			if n := strings.Count(box, "hosts"); n != 1 {
				t.Fatalf("the question names the file %d times, want once:\n%s", n, got)
			}
			golden(t, m, fmt.Sprintf("permission_outside_%dx%d", sz[0], sz[1]))
		})
	}
}

// at sets the model's clock to t0 plus d and delivers a spinner tick, as
// the running spinner does every frame.
func at(m *Model, t0 time.Time, d time.Duration) {
	m.now = func() time.Time { return t0.Add(d) }
	send(m, spinMsg{at: t0.Add(d)})
}

// A running call shows how long it has run, counted by the spinner's
// ticks, at 80×24 and 120×40 (issue 32 leftovers: no elapsed time).
func TestRunningCallShowsItsTime(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := newTestModel(t, sz[0], sz[1])
			t0 := time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)
			m.now = func() time.Time { return t0 }
			prompt(m, "run the tests")
			send(m, events(agent.StateChanged{From: agent.StateIdle, To: agent.StateExecuting},
				agent.ToolStarted{CallID: "c1", Name: "run_command", Args: `{"command":"go test ./..."}`}))
			if got := plain(m); strings.Contains(got, "running") {
				t.Fatalf("no time before the first second:\n%s", got)
			}
			at(m, t0, 12*time.Second+300*time.Millisecond)
			if got := plain(m); !strings.Contains(got, "go test ./...  running 12s") {
				t.Fatalf("the running command shows no time:\n%s", got)
			}
			golden(t, m, fmt.Sprintf("running_%dx%d", sz[0], sz[1]))
			at(m, t0, 75*time.Second)
			if got := plain(m); !strings.Contains(got, "running 1m15s") {
				t.Fatalf("the time does not move on:\n%s", got)
			}
			send(m, events(agent.ToolFinished{CallID: "c1", Name: "run_command", Args: `{"command":"go test ./..."}`, Duration: 75 * time.Second}))
			if got := plain(m); strings.Contains(got, "running") || !strings.Contains(got, "1m15s") {
				t.Fatalf("a finished call shows its duration, not a running time:\n%s", got)
			}
		})
	}
}

// The time a call waits for the user's permission is not running time:
// its count starts when the user answers.
func TestWaitingForPermissionIsNotRunning(t *testing.T) {
	m := newTestModel(t, 80, 24)
	t0 := time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return t0 }
	prompt(m, "build it")
	send(m, events(agent.StateChanged{From: agent.StateIdle, To: agent.StateExecuting},
		agent.ToolStarted{CallID: "c1", Name: "run_command", Args: `{"command":"make"}`}))
	askPending(t, m, agent.PermissionRequest{CallID: "c1", Tool: "run_command", Summary: "make", Grant: "run_command: make …"})
	at(m, t0, 30*time.Second)
	if got := plain(m); strings.Contains(got, "running") {
		t.Fatalf("a call waiting for the user shows a running time:\n%s", got)
	}
	send(m, press("a"))
	at(m, t0, 34*time.Second)
	if got := plain(m); !strings.Contains(got, "make  running 4s") {
		t.Fatalf("the allowed call's time should count from the answer:\n%s", got)
	}
}

// A !command shows its running time too, and once nothing runs the
// spinner's tick stops: no timer is left for an idle TUI.
func TestShellCommandShowsItsTimeThenTheTickStops(t *testing.T) {
	m := newTestModel(t, 80, 24)
	t0 := time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return t0 }
	id := m.trackShell("sleep 5", func() {})
	at(m, t0, 5*time.Second)
	if got := plain(m); !strings.Contains(got, "sleep 5  running 5s") {
		t.Fatalf("the !command shows no time:\n%s", got)
	}
	send(m, shellcmd.DoneMsg{ID: id, Result: tools.Result{ExitCode: intp(0)}, Duration: 5 * time.Second})
	if _, cmd := m.Update(spinMsg{at: t0.Add(6 * time.Second)}); cmd != nil || m.spinning {
		t.Fatal("the tick goes on after the !command ended")
	}
}
