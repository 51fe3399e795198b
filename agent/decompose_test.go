package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// A step with no progress for decompose_calls calls gets keel's request
// for sub-steps; the model's sub-steps end the decomposing state.
func TestStalledStepIsDecomposed(t *testing.T) {
	s, srv := newSession(t, llmtest.Rounds(
		planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"fix","title":"fix the bug","status":"active"}]}`),
		echo("a"), echo("b"),
		planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"fix","title":"fix the bug","status":"active"},{"id":"f1","title":"find the line","status":"active","parent":"fix"},{"id":"f2","title":"change it","status":"pending","parent":"fix"}]}`),
		llmtest.TextRound("splitting helped"),
	), func(o *Options) {
		o.Discipline.Set("stall_calls", 0)
		o.Discipline.Set("plan_continue", false)
		o.Discipline.Set("decompose_calls", 3)
	})
	evs, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stop %s", st.Reason)
	}
	msgs := srv.Requests()[3].Messages
	if got := msgs[len(msgs)-1].Content; !strings.Contains(got, `The step "fix the bug" has taken 3 tool calls`) {
		t.Errorf("decomposition request = %q", got)
	}
	var path []string
	for _, sc := range eventsOf[StateChanged](evs) {
		path = append(path, string(sc.To))
	}
	if got := strings.Join(path, " "); !strings.Contains(got, "observing decomposing planning") {
		t.Errorf("path %s", got)
	}
	if p := st.Summary.Plan; len(p.Steps) != 3 || p.Steps[1].Parent != "fix" {
		t.Errorf("plan %+v", p)
	}
}
