package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

func TestCancelMidStreamKeepsHistoryValid(t *testing.T) {
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.Round{Text: "thinking about it", TextChunk: 4, Hang: true, HangAfter: 3},
		llmtest.TextRound("second answer"),
	), nil)
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.Submit(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	waitFor[TextDelta](t, s)
	cancel()
	_, st := collect(t, s)
	if st.Reason != StopCancelled {
		t.Fatalf("stop = %s, want cancelled", st.Reason)
	}
	_, st = runTask(t, context.Background(), s, "second")
	if st.Reason != StopCompleted {
		t.Fatalf("second task: %s %s", st.Reason, st.Message)
	}
	if got := roles(srv.Requests()[1].Messages); got != "system user assistant user" {
		t.Errorf("second request roles = %q", got)
	}
}

func TestCancelMidToolGivesEveryCallAResult(t *testing.T) {
	started := make(chan struct{})
	wait := blockingTool(started)
	s, srv := newSession(t, llmtest.Rounds(
		llmtest.ToolRound(call("w1", "wait", `{}`), call("w2", "wait", `{}`)),
		llmtest.TextRound("after"),
	), func(o *Options) { o.Tools = append(o.Tools, wait) })
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.Submit(ctx, "run"); err != nil {
		t.Fatal(err)
	}
	await(t, started, "the tool to start")
	cancel()
	_, st := collect(t, s)
	if st.Reason != StopCancelled {
		t.Fatalf("stop = %s", st.Reason)
	}
	if n := wait.calls.Load(); n != 1 {
		t.Errorf("the second call ran after cancel (%d runs)", n)
	}
	_, st = runTask(t, context.Background(), s, "again")
	if st.Reason != StopCompleted {
		t.Fatalf("second task %s: %s", st.Reason, st.Message)
	}
	msgs := srv.Requests()[1].Messages
	var results []string
	for _, m := range msgs {
		if m.Role == "tool" {
			results = append(results, m.ToolCallID+":"+m.Content)
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], "w1:cancelled") || !strings.Contains(results[1], "w2:cancelled") {
		t.Errorf("tool results after cancel = %q", results)
	}
}

func TestSubmitWhileRunningIsBusy(t *testing.T) {
	started := make(chan struct{})
	s, _ := newSession(t, llmtest.Rounds(llmtest.ToolRound(call("w", "wait", `{}`))), func(o *Options) {
		o.Tools = []tools.Tool{blockingTool(started)}
	})
	if err := s.Submit(context.Background(), "one"); err != nil {
		t.Fatal(err)
	}
	await(t, started, "the tool to start")
	if err := s.Submit(context.Background(), "two"); err != ErrBusy {
		t.Errorf("second submit = %v, want ErrBusy", err)
	}
	s.Cancel()
	if _, st := collect(t, s); st.Reason != StopCancelled {
		t.Errorf("stop = %s", st.Reason)
	}
}

// waitFor drains events until one of type T arrives.
func waitFor[T Event](t *testing.T, s *Session) T {
	t.Helper()
	for ev := range s.Events() {
		if v, ok := ev.(T); ok {
			return v
		}
	}
	var zero T
	t.Fatal("events closed")
	return zero
}
