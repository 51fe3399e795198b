package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// scriptedConfirmer answers plan confirmations in order and records them.
type scriptedConfirmer struct {
	mu       sync.Mutex
	verdicts []PlanVerdict
	seen     []Plan
}

var _ PlanConfirmer = (*scriptedConfirmer)(nil)

func (c *scriptedConfirmer) ConfirmPlan(_ context.Context, p Plan) (PlanVerdict, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seen = append(c.seen, p)
	v := c.verdicts[0]
	c.verdicts = c.verdicts[1:]
	return v, nil
}

func writeTool() *fakeTool { return &fakeTool{name: "write", class: tools.Write} }

func TestPlanConfirmation(t *testing.T) {
	plan := planCall("g", "change it=active")
	write := llmtest.ToolRound(call("", "write", `{"path":"x"}`))
	cases := []struct {
		name      string
		confirmer *scriptedConfirmer
		rounds    []llmtest.Round
		want      StopReason
		writes    int32
		asked     int
		notice    bool
	}{
		{"approved runs", &scriptedConfirmer{verdicts: []PlanVerdict{{Approve: true}}}, []llmtest.Round{plan, write, write, llmtest.TextRound("ok")}, StopCompleted, 2, 1, false},
		{"feedback holds the call back", &scriptedConfirmer{verdicts: []PlanVerdict{{Feedback: "test first"}, {Approve: true}}}, []llmtest.Round{plan, write, planCall("g", "test=active"), write, llmtest.TextRound("ok")}, StopCompleted, 1, 2, false},
		{"cancel stops the task", &scriptedConfirmer{verdicts: []PlanVerdict{{Cancel: true}, {Approve: true}}}, []llmtest.Round{plan, llmtest.ToolRound(call("w1", "write", `{}`), call("w2", "write", `{}`)), llmtest.TextRound("never")}, StopCancelled, 0, 1, false},
		{"headless approves with a notice", nil, []llmtest.Round{plan, write, llmtest.TextRound("ok")}, StopCompleted, 1, 0, true},
		{"no plan, nothing to confirm", &scriptedConfirmer{}, []llmtest.Round{write, llmtest.TextRound("ok")}, StopCompleted, 1, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := writeTool()
			s, srv := newSession(t, llmtest.Rounds(c.rounds...), func(o *Options) {
				o.Tools = append(o.Tools, w)
				o.ConfirmPlan = true
				o.Discipline.Set("plan_continue", false)
				if c.confirmer != nil {
					o.Confirmer = c.confirmer
				}
			})
			evs, st := runTask(t, context.Background(), s, "change things")
			if st.Reason != c.want || w.calls.Load() != c.writes {
				t.Fatalf("stop %s (%s), writes %d; want %s, %d", st.Reason, st.Message, w.calls.Load(), c.want, c.writes)
			}
			if c.confirmer != nil && len(c.confirmer.seen) != c.asked {
				t.Errorf("asked %d times, want %d", len(c.confirmer.seen), c.asked)
			}
			if got := len(eventsOf[Notice](evs)) > 0; got != c.notice {
				t.Errorf("notice = %v", got)
			}
			if c.name == "feedback holds the call back" {
				if got := lastTool(srv.Requests()[2].Messages).Content; !strings.Contains(got, "test first") {
					t.Errorf("held-back call result = %q", got)
				}
			}
		})
	}
}

// askingPolicy asks about every call, as the real policy does for a write
// no rule allows; allow lists the tools a rule allows.
type askingPolicy struct{ allow string }

func (p askingPolicy) Decide(tool string, _ json.RawMessage) tools.Decision {
	if tool == p.allow {
		return tools.Decision{Verdict: tools.Allow}
	}
	return tools.Decision{Verdict: tools.Ask, Reason: "writes a file"}
}
func (askingPolicy) Grant(tools.Grant) {}

// Headless, with nobody to confirm the plan and no rule allowing its
// side effects, the task stops with plan_unconfirmed before any change.
func TestHeadlessConfirmPlanRefusesWithoutARule(t *testing.T) {
	for _, c := range []struct {
		allow  string
		want   StopReason
		writes int32
	}{{"", StopPlanUnconfirmed, 0}, {"write", StopCompleted, 1}} {
		w := writeTool()
		s, srv := newSession(t, llmtest.Rounds(planCall("g", "change it=active"), llmtest.ToolRound(call("", "write", `{"path":"x"}`)), llmtest.TextRound("ok")), func(o *Options) {
			o.Tools = append(o.Tools, w)
			o.ConfirmPlan = true
			o.Permissions = askingPolicy{allow: c.allow}
			o.Discipline.Set("plan_continue", false)
		})
		_, st := runTask(t, context.Background(), s, "change things")
		if st.Reason != c.want || w.calls.Load() != c.writes {
			t.Fatalf("rule %q: stop %s (%s), writes %d", c.allow, st.Reason, st.Message, w.calls.Load())
		}
		if c.want == StopPlanUnconfirmed && (!st.Reason.Halted() || len(srv.Requests()) != 2) {
			t.Errorf("requests %d", len(srv.Requests()))
		}
	}
}
