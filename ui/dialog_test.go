package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/dialog"
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
	case <-time.After(time.Minute):
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
			if m.dialogs.Active() {
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
	if m.dialogs.Active() {
		t.Fatal("a question whose task ended should be dropped")
	}
}

func TestDialogTakesKeysFirst(t *testing.T) {
	m := newTestModel(t, 80, 24)
	askAsync(t, m, agent.PermissionRequest{Tool: "run_command"})
	send(m, press("x"), press("?"))
	if m.input.Value() != "" || m.help.Open() {
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
	m.submit("do it", nil) // its command is not run: the session never starts
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

// A permission question that opens while the user types must not take
// the next keys as its answer ("a" allows a call the user never read);
// after the guard, or when the user was not typing, keys answer it.
func TestDialogIgnoresTypeAhead(t *testing.T) {
	cases := []struct {
		name       string
		typedAgo   time.Duration // before the question opened; 0: nothing typed
		pressAfter time.Duration // after it opened
		answered   bool
	}{
		{"typing when it opened, key at once", 200 * time.Millisecond, 100 * time.Millisecond, false},
		{"typing when it opened, key after the guard", 200 * time.Millisecond, dialog.TypeAheadGuard + time.Millisecond, true},
		{"typed long before", dialog.TypeAheadWindow + time.Millisecond, 100 * time.Millisecond, true},
		{"nothing typed", 0, 10 * time.Millisecond, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newTestModel(t, 100, 30)
			clock := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
			m.now = func() time.Time { return clock }
			if c.typedAgo > 0 {
				clock = clock.Add(-c.typedAgo)
				send(m, press("s"), press("a"), press("y"))
				clock = clock.Add(c.typedAgo)
			}
			reply := askAsync(t, m, agent.PermissionRequest{CallID: "c1", Tool: "run_command", Args: `{"command":"rm -rf build"}`})
			clock = clock.Add(c.pressAfter)
			send(m, press("a"))
			if got := m.dialogs.Active(); got == c.answered {
				t.Fatalf("dialog active = %v after the key, want answered %v", got, c.answered)
			}
			if c.answered {
				if rep := waitReply(t, reply); !rep.Allow {
					t.Errorf("reply = %+v, want allowed", rep)
				}
				return
			}
			if !strings.Contains(plain(m), "not taken as an answer") {
				t.Errorf("no hint says the key was ignored:\n%s", plain(m))
			}
			clock = clock.Add(dialog.TypeAheadGuard)
			send(m, press("a"))
			if rep := waitReply(t, reply); !rep.Allow {
				t.Errorf("after the guard: reply = %+v, want allowed", rep)
			}
		})
	}
}

// Typing a prompt and sending it is not typing ahead: the question the
// prompt leads to answers the next key at once.
func TestDialogAfterASentPromptTakesKeys(t *testing.T) {
	m := newTestModel(t, 100, 30)
	clock := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return clock }
	for _, r := range "fix it" {
		send(m, press(string(r)))
	}
	send(m, press("enter"))
	clock = clock.Add(50 * time.Millisecond)
	reply := askAsync(t, m, agent.PermissionRequest{CallID: "c1", Tool: "run_command", Args: `{"command":"go test"}`})
	clock = clock.Add(50 * time.Millisecond)
	send(m, press("a"))
	if rep := waitReply(t, reply); !rep.Allow {
		t.Errorf("reply = %+v, want allowed", rep)
	}
}
