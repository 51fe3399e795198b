package agent

import (
	"context"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// TestOnFirstAnswerRunsOnce: the hook runs once, after the first answer
// arrived and not before, however many rounds and tasks follow.
func TestOnFirstAnswerRunsOnce(t *testing.T) {
	echo := llmtest.Call{ID: "c1", Name: "echo", Args: `{"x":1}`}
	script := llmtest.Script{Rounds: []llmtest.Round{
		llmtest.ToolRound(echo), llmtest.ToolRound(echo), llmtest.TextRound("done"),
		llmtest.TextRound("second task done"),
	}}
	var calls, requestsAtCall int
	var srv *llmtest.Server
	s, srv := newSession(t, script, func(o *Options) {
		o.OnFirstAnswer = func() {
			calls++
			requestsAtCall = len(srv.Requests())
		}
	})
	if calls != 0 {
		t.Fatalf("the hook ran %d times before any task", calls)
	}
	ctx := context.Background()
	for _, prompt := range []string{"first", "second"} {
		if _, st := runTask(t, ctx, s, prompt); st.Reason != StopCompleted {
			t.Fatalf("task %q stopped with %v", prompt, st.Reason)
		}
	}
	if calls != 1 || requestsAtCall != 1 {
		t.Errorf("the hook ran %d times, the first with %d requests made; want once, after the first", calls, requestsAtCall)
	}
}
