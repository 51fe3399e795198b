package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
)

// askAsync asks the bridge from another goroutine, as the agent does, and
// delivers the question to the model as the drain command would.
func askAsync(t *testing.T, m *Model, req agent.PermissionRequest) <-chan agent.PermissionReply {
	t.Helper()
	out := make(chan agent.PermissionReply, 1)
	go func() {
		rep, err := m.opts.Bridge.Ask(context.Background(), req)
		if err != nil {
			t.Errorf("Ask: %v", err)
		}
		out <- rep
	}()
	deliver(t, m)
	return out
}

// deliver runs the model's drain command once and feeds its message back.
func deliver(t *testing.T, m *Model) {
	t.Helper()
	msg := m.drain()()
	if _, ok := msg.(requestMsg); !ok {
		t.Fatalf("drain delivered %T, want a question", msg)
	}
	send(m, msg)
}

func waitReply[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatal("no reply from the bridge")
	}
	var zero T
	return zero
}

func TestBridgeAnswersPermission(t *testing.T) {
	req := agent.PermissionRequest{CallID: "1", Tool: "run_command", Summary: "make clean", Grant: "run_command: make clean"}
	tests := []struct {
		keys []string
		want agent.PermissionReply
	}{
		{[]string{"a"}, agent.PermissionReply{Allow: true}},
		{[]string{"s"}, agent.PermissionReply{Allow: true, ForSession: true}},
		{[]string{"d", "enter"}, agent.PermissionReply{}},
		{[]string{"d", "n", "o", "enter"}, agent.PermissionReply{Reason: "no"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.keys, "+"), func(t *testing.T) {
			m := newTestModel(t, 80, 24)
			ch := askAsync(t, m, req)
			if !strings.Contains(plain(m), "Allow run_command?") || !strings.Contains(plain(m), "s covers: run_command: make clean") {
				t.Fatalf("dialog not shown:\n%s", plain(m))
			}
			for _, k := range tc.keys {
				send(m, press(k))
			}
			if got := waitReply(t, ch); got != tc.want {
				t.Fatalf("reply %+v, want %+v", got, tc.want)
			}
			if m.dialogs.active() {
				t.Fatal("the dialog should close after the answer")
			}
		})
	}
}

func TestSeveralPendingShownOneAtATime(t *testing.T) {
	m := newTestModel(t, 80, 24)
	ch1 := askAsync(t, m, agent.PermissionRequest{Tool: "write_file", Summary: "a.txt"})
	ch2 := askAsync(t, m, agent.PermissionRequest{Tool: "edit_file", Summary: "b.txt", Args: `{"old_string":"x","new_string":"y"}`})
	if !strings.Contains(plain(m), "1 of 2 pending") || !strings.Contains(plain(m), "Allow write_file?") {
		t.Fatalf("want the first of two:\n%s", plain(m))
	}
	send(m, press("a"))
	if !strings.Contains(plain(m), "Allow edit_file?") || !strings.Contains(plain(m), "+y") {
		t.Fatalf("want the second, with its preview:\n%s", plain(m))
	}
	send(m, press("esc"))
	if r := waitReply(t, ch1); !r.Allow {
		t.Fatal("first should be allowed")
	}
	if r := waitReply(t, ch2); r.Allow {
		t.Fatal("esc should deny the second")
	}
}

func TestGuardQuestion(t *testing.T) {
	tests := []struct {
		keys []string
		want agent.GuardAnswer
	}{
		{[]string{"c"}, agent.GuardAnswer{Continue: true}},
		{[]string{"s"}, agent.GuardAnswer{}},
		{[]string{"g", "h", "i", "enter"}, agent.GuardAnswer{Continue: true, Guidance: "hi"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.keys, "+"), func(t *testing.T) {
			m := newTestModel(t, 80, 24)
			out := make(chan agent.GuardAnswer, 1)
			go func() {
				a, _ := m.opts.Bridge.AskGuard(context.Background(), agent.Intervention{Kind: "repeat", Why: "same call 4 times"})
				out <- a
			}()
			deliver(t, m)
			if !strings.Contains(plain(m), "keel stopped a loop") || !strings.Contains(plain(m), "same call 4 times") {
				t.Fatalf("guard dialog not shown:\n%s", plain(m))
			}
			for _, k := range tc.keys {
				send(m, press(k))
			}
			if got := waitReply(t, out); got != tc.want {
				t.Fatalf("answer %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestWithdrawnQuestionIsDropped(t *testing.T) {
	m := newTestModel(t, 80, 24)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := m.opts.Bridge.Ask(ctx, agent.PermissionRequest{Tool: "run_command"})
		errc <- err
	}()
	deliver(t, m)
	cancel()
	if err := waitReply(t, errc); err == nil {
		t.Fatal("Ask should return the context's error")
	}
	send(m, events(agent.TaskStopped{Reason: agent.StopCancelled}))
	if m.dialogs.active() {
		t.Fatal("a question whose task ended should be dropped")
	}
}

func TestDialogTakesKeysFirst(t *testing.T) {
	m := newTestModel(t, 80, 24)
	askAsync(t, m, agent.PermissionRequest{Tool: "run_command"})
	send(m, press("x"), press("?"))
	if m.input.value() != "" || m.help.open {
		t.Fatal("keys go to the dialog while it is open")
	}
	send(m, press("d"), tea.PasteMsg{Content: "pasted reason"})
	if !strings.Contains(plain(m), "pasted reason") {
		t.Fatal("a paste goes to the reason box")
	}
}

func TestPlanConfirmationDialog(t *testing.T) {
	plan := agent.Plan{Goal: "fix the parser", Strategy: "test first", Steps: []agent.Step{{Title: "write a failing test", Status: agent.StepActive}, {Title: "fix it", Status: agent.StepPending}}}
	tests := []struct {
		keys []string
		want agent.PlanVerdict
	}{
		{[]string{"a"}, agent.PlanVerdict{Approve: true}},
		{[]string{"c"}, agent.PlanVerdict{Cancel: true}},
		{[]string{"e", "o", "k", "enter"}, agent.PlanVerdict{Feedback: "ok"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.keys, "+"), func(t *testing.T) {
			m := newTestModel(t, 80, 24)
			out := make(chan agent.PlanVerdict, 1)
			go func() {
				v, _ := m.opts.Bridge.ConfirmPlan(context.Background(), plan)
				out <- v
			}()
			deliver(t, m)
			screen := plain(m)
			for _, want := range []string{"Approve the plan", "fix the parser", "1. write a failing test", "2. fix it"} {
				if !strings.Contains(screen, want) {
					t.Fatalf("plan dialog lacks %q:\n%s", want, screen)
				}
			}
			for _, k := range tc.keys {
				send(m, press(k))
			}
			if got := waitReply(t, out); got != tc.want {
				t.Fatalf("verdict %+v, want %+v", got, tc.want)
			}
		})
	}
}

// The window title follows the state: ready, working while a task runs,
// needs you while a question waits, ready again once the task stops.
func TestWindowTitleFollowsTheState(t *testing.T) {
	m := newTestModel(t, 100, 30)
	title := func() string { return m.View().WindowTitle }
	if got := title(); got != TitleReady {
		t.Fatalf("at start: %q", got)
	}
	m.submit("do it") // its command is not run: the session never starts
	if got := title(); got != TitleWorking {
		t.Errorf("with a task running: %q", got)
	}
	reply := askAsync(t, m, agent.PermissionRequest{CallID: "1", Tool: "run_command", Summary: "make clean"})
	if got := title(); got != TitleAsking {
		t.Errorf("with a question waiting: %q", got)
	}
	send(m, press("a"))
	waitReply(t, reply)
	if got := title(); got != TitleWorking {
		t.Errorf("after the answer: %q", got)
	}
	send(m, events(agent.TaskStopped{Reason: agent.StopCompleted}))
	if got := title(); got != TitleReady {
		t.Errorf("after the task stopped: %q", got)
	}
}
