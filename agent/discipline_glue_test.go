package agent

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// A headless run whose model keeps ending its turn with plan steps open is
// reminded up to the limit, then stops with plan_failed (exit 3), the plan
// marked failed and its open steps named: never "completed".
func TestOpenPlanStopsWithPlanFailedAfterReminders(t *testing.T) {
	s, srv := planSession(t,
		planCall("g", "read=completed", "fix=pending", "test=pending"),
		llmtest.TextRound("I looked at it."),
		llmtest.TextRound("Nothing more to do."),
		llmtest.TextRound("As I said, it is fine."),
		llmtest.TextRound("Stopping here."),
	)
	s.opts.Discipline.Set("plan_continue_max", 3)
	evs, st := runTask(t, context.Background(), s, "fix it")
	if st.Reason != StopPlanFailed || !st.Reason.Halted() {
		t.Fatalf("stop %s (%s), want plan_failed", st.Reason, st.Message)
	}
	if p := st.Summary.Plan; p == nil || p.Status != PlanFailed {
		t.Fatalf("plan = %+v, want status failed", p)
	}
	for _, want := range []string{`"fix"`, `"test"`, "4 times"} {
		if !strings.Contains(st.Message, want) {
			t.Errorf("stop message %q lacks %q", st.Message, want)
		}
	}
	if got := len(srv.Requests()); got != 5 {
		t.Errorf("%d requests, want 5 (3 reminders)", got)
	}
	var kinds []string
	for _, in := range st.Summary.Interventions {
		kinds = append(kinds, in.Kind+"/"+in.Action)
	}
	if got := strings.Join(kinds, " "); got != "plan_continue/inject plan_continue/inject plan_continue/inject plan_continue/halt" {
		t.Errorf("interventions %s", got)
	}
	last := eventsOf[PlanChanged](evs)
	if len(last) == 0 || last[len(last)-1].Plan.Status != PlanFailed {
		t.Errorf("no PlanChanged with the failed plan")
	}
}

func TestUsedUpBacktracksMarkThePlanFailed(t *testing.T) {
	var rounds []llmtest.Round
	for _, step := range []string{"try 1", "try 2", "try 3"} {
		rounds = append(rounds, planCall("g", step+"=active"), planCall("g", step+"=failed"))
	}
	s, _ := planSession(t, rounds...)
	_, st := runTask(t, context.Background(), s, "hard task")
	if st.Reason != StopPlanFailed || st.Summary.Plan == nil || st.Summary.Plan.Status != PlanFailed {
		t.Fatalf("stop %s, plan %+v; want plan_failed and a failed plan", st.Reason, st.Summary.Plan)
	}
}

// The tool's reply and the replanning message name the same attempt.
func TestReplanAttemptNumbersAgree(t *testing.T) {
	s, srv := planSession(t,
		planCall("g", "a=active"),
		planCall("g", "a=failed"),
		planCall("g", "b=active"),
		planCall("g", "b=failed"),
		planCall("g", "c=completed"),
		llmtest.TextRound("done"),
	)
	_, st := runTask(t, context.Background(), s, "go")
	if st.Reason != StopCompleted {
		t.Fatalf("stop %s: %s", st.Reason, st.Message)
	}
	attempt := regexp.MustCompile(`attempt (\d+)`)
	for _, n := range []int{2, 4} { // the requests after each failure
		msgs := srv.Requests()[n].Messages
		reply := attempt.FindStringSubmatch(lastTool(msgs).Content)
		replan := attempt.FindStringSubmatch(msgs[len(msgs)-1].Content)
		if reply == nil || replan == nil || reply[1] != replan[1] {
			t.Errorf("request %d: reply %q, replan %q", n+1, lastTool(msgs).Content, msgs[len(msgs)-1].Content)
		}
	}
	if st.Summary.Plan.Attempt != 2 {
		t.Errorf("final attempt %d, want 2", st.Summary.Plan.Attempt)
	}
}

// UsageUpdated's countdown follows the schedule of multiples: with three
// calls a round and cadence 10 it reads 7, 4, 1, then 8 after the
// checkpoint at 12 (the next is due at 20).
func TestNextCheckpointInCountsToTheMultiple(t *testing.T) {
	three := func(p string) llmtest.Round {
		return llmtest.ToolRound(call("", "echo", `{"path":"`+p+`1"}`), call("", "echo", `{"path":"`+p+`2"}`), call("", "echo", `{"path":"`+p+`3"}`))
	}
	s, _ := newSession(t, llmtest.Rounds(three("a"), three("b"), three("c"), three("d"), three("e"), llmtest.TextRound("ok")), func(o *Options) {
		o.Discipline.ReflectionCadence = 10
	})
	evs, _ := runTask(t, context.Background(), s, "go")
	var got []int
	for _, u := range eventsOf[UsageUpdated](evs) {
		got = append(got, u.NextCheckpointIn)
	}
	// One UsageUpdated per request: before any call, then after 3, 6, 9, 12, 15.
	want := []int{10, 7, 4, 1, 8, 5}
	if len(got) != len(want) {
		t.Fatalf("countdowns %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("countdowns %v, want %v", got, want)
		}
	}
}
