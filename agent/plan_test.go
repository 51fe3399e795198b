package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// planCall scripts an update_plan call with steps given as "title=status".
func planCall(goal string, steps ...string) llmtest.Round {
	var parts []string
	for _, s := range steps {
		title, status, _ := strings.Cut(s, "=")
		note := ""
		if status == "failed" {
			note = `,"note":"it broke"`
		}
		parts = append(parts, fmt.Sprintf(`{"title":%q,"status":%q%s}`, title, status, note))
	}
	strategy, _, _ := strings.Cut(steps[0], "=") // each attempt's own: a replan must differ
	return llmtest.ToolRound(call("", "update_plan", fmt.Sprintf(`{"goal":%q,"strategy":%q,"steps":[%s]}`, goal, strategy, strings.Join(parts, ","))))
}

// planSession is a session whose tools include the real update_plan.
func planSession(t *testing.T, rounds ...llmtest.Round) (*Session, *llmtest.Server) {
	return newSession(t, llmtest.Rounds(rounds...), func(o *Options) {
		o.Discipline.Set("stall_calls", 0)
	})
}

func TestFourStepPlanCompletes(t *testing.T) {
	s, _ := planSession(t,
		planCall("g", "a=active", "b=pending", "c=pending", "d=pending"),
		planCall("g", "a=completed", "b=active", "c=pending", "d=pending"),
		planCall("g", "a=completed", "b=completed", "c=active", "d=pending"),
		planCall("g", "a=completed", "b=completed", "c=completed", "d=active"),
		planCall("g", "a=completed", "b=completed", "c=completed", "d=completed"),
		llmtest.TextRound("all four done"),
	)
	evs, st := runTask(t, context.Background(), s, "do four things")
	if st.Reason != StopCompleted {
		t.Fatalf("stop %s: %s", st.Reason, st.Message)
	}
	p := st.Summary.Plan
	if p == nil || p.Status != PlanCompleted || p.Attempt != 0 || len(p.Steps) != 4 {
		t.Fatalf("final plan = %+v", p)
	}
	if n := len(eventsOf[PlanChanged](evs)); n != 5 {
		t.Errorf("plan events = %d, want 5", n)
	}
}

func TestFailedStepSupersedesThePlanAndReplans(t *testing.T) {
	s, srv := planSession(t,
		planCall("g", "reproduce=active", "fix=pending"),
		planCall("g", "reproduce=failed", "fix=pending"),
		planCall("g", "other route=active"),
		planCall("g", "other route=completed"),
		llmtest.TextRound("done another way"),
	)
	_, st := runTask(t, context.Background(), s, "fix it")
	if st.Reason != StopCompleted || st.Summary.Plan.Attempt != 1 || st.Summary.Plan.Status != PlanCompleted {
		t.Fatalf("stop %s, plan %+v", st.Reason, st.Summary.Plan)
	}
	req := srv.Requests()[2].Messages
	msg := req[len(req)-1]
	if msg.Role != "user" || !strings.Contains(msg.Content, "reproduce") || !strings.Contains(msg.Content, "it broke") || !strings.Contains(strings.ToLower(msg.Content), "act first") {
		t.Errorf("replanning message = %q", msg.Content)
	}
}

func TestThreeFailedPlansStopWithPlanFailed(t *testing.T) {
	var rounds []llmtest.Round
	for i := 0; i < 3; i++ {
		step := fmt.Sprintf("try %d", i+1)
		rounds = append(rounds, planCall("g", step+"=active"), planCall("g", step+"=failed"))
	}
	rounds = append(rounds, llmtest.TextRound("never reached"))
	s, _ := planSession(t, rounds...)
	_, st := runTask(t, context.Background(), s, "hard task")
	if st.Reason != StopPlanFailed || !st.Reason.Halted() {
		t.Fatalf("stop = %s (%s), want plan_failed", st.Reason, st.Message)
	}
	for _, want := range []string{"3 plans failed", "try 1", "try 3"} {
		if !strings.Contains(st.Message, want) {
			t.Errorf("summary %q lacks %q", st.Message, want)
		}
	}
}

func TestSecondActiveStepIsRejected(t *testing.T) {
	s, srv := planSession(t, planCall("g", "a=active", "b=active"), llmtest.TextRound("ok"))
	_, st := runTask(t, context.Background(), s, "go")
	if st.Summary.Plan != nil {
		t.Errorf("a plan with two active steps was kept: %+v", st.Summary.Plan)
	}
	if got := lastTool(srv.Requests()[1].Messages).Content; !strings.Contains(got, "keep exactly one step active") {
		t.Errorf("rejection = %q", got)
	}
}

func TestGuardHaltFailsTheActiveStepInsteadOfStopping(t *testing.T) {
	same := llmtest.ToolRound(call("", "echo", `{"path":"same"}`))
	s, srv := planSession(t,
		planCall("g", "look=active", "act=pending"),
		same, same, same, same,
		planCall("g", "act differently=completed"),
		llmtest.TextRound("recovered"),
	)
	_, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted || st.Summary.Plan.Attempt != 1 {
		t.Fatalf("stop %s (%s), plan %+v", st.Reason, st.Message, st.Summary.Plan)
	}
	req := srv.Requests()[5].Messages
	if msg := req[len(req)-1].Content; !strings.Contains(msg, "look") || !strings.Contains(msg, "guard") {
		t.Errorf("replanning message after the guard = %q", msg)
	}
}
