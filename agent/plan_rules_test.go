package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// planJSON scripts an update_plan call with the arguments as given.
func planJSON(args string) llmtest.Round {
	return llmtest.ToolRound(call("", "update_plan", args))
}

// toolReplies are the results of every update_plan call the server saw,
// in order.
func planReplies(srv *llmtest.Server) []string {
	var out []string
	reqs := srv.Requests()
	for i := 1; i < len(reqs); i++ {
		prev := reqs[i-1].Messages
		msg := lastTool(reqs[i].Messages)
		_ = prev
		if msg.Name == PlanToolName || strings.HasPrefix(msg.Content, "plan ") {
			out = append(out, msg.Content)
		}
	}
	return out
}

func TestPlanRules(t *testing.T) {
	const deps = `{"goal":"g","strategy":"direct","steps":[{"id":"a","title":"read","status":"%s"},{"id":"b","title":"edit","status":"%s","depends_on":["a"]}]}`
	cases := []struct {
		name   string
		rounds []llmtest.Round
		// checks on the result
		stop        StopReason
		attempt     int
		planStatus  string
		replyHas    []string // in some update_plan reply
		replanMsg   bool     // a replanning message was sent
		finalActive string   // the title of the active step at the end ("" none)
	}{
		{
			name:   "a step cannot become active before its dependencies",
			rounds: []llmtest.Round{planJSON(fmt.Sprintf(deps, "pending", "active")), planJSON(fmt.Sprintf(deps, "active", "pending")), planJSON(fmt.Sprintf(deps, "completed", "completed")), llmtest.TextRound("ok")},
			stop:   StopCompleted, planStatus: PlanCompleted,
			replyHas: []string{`plan rejected: step "edit" (id b) cannot be active before its dependencies are done: "read" (id a), pending`},
		},
		{
			name: "a failed can_fail step does not replan",
			rounds: []llmtest.Round{
				planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"lint","title":"lint","status":"active","can_fail":true},{"id":"ship","title":"ship","status":"pending","depends_on":["lint"]}]}`),
				planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"lint","title":"lint","status":"failed","can_fail":true,"note":"no linter"},{"id":"ship","title":"ship","status":"active","depends_on":["lint"]}]}`),
				planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"lint","title":"lint","status":"failed","can_fail":true},{"id":"ship","title":"ship","status":"completed","depends_on":["lint"]}]}`),
				llmtest.TextRound("shipped")},
			stop: StopCompleted, planStatus: PlanCompleted, attempt: 0,
			replyHas: []string{`step "lint" failed and may fail (can_fail), so the plan goes on without replanning`},
		},
		{
			name: "a failed step with a fallback activates it before any replan",
			rounds: []llmtest.Round{
				planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"patch","title":"patch","status":"active","fallback":"rewrite"},{"id":"rewrite","title":"rewrite","status":"pending"}]}`),
				planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"patch","title":"patch","status":"failed","fallback":"rewrite","note":"no match"},{"id":"rewrite","title":"rewrite","status":"pending"}]}`),
				llmtest.TextRound("stopping here")},
			stop: StopCompleted, planStatus: PlanActive, attempt: 0, finalActive: "rewrite",
			replyHas: []string{`step "patch" failed, so keel activated its fallback "rewrite": work on it now (no replan)`},
		},
		{
			name: "a fallback that also fails replans",
			rounds: []llmtest.Round{
				planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"patch","title":"patch","status":"active","fallback":"rewrite"},{"id":"rewrite","title":"rewrite","status":"pending"}]}`),
				planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"patch","title":"patch","status":"failed","fallback":"rewrite"},{"id":"rewrite","title":"rewrite","status":"active"}]}`),
				planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"patch","title":"patch","status":"failed","fallback":"rewrite"},{"id":"rewrite","title":"rewrite","status":"failed","note":"too big"}]}`),
				planJSON(`{"goal":"g","strategy":"ask upstream","steps":[{"title":"report","status":"completed"}]}`),
				llmtest.TextRound("reported")},
			stop: StopCompleted, planStatus: PlanCompleted, attempt: 1, replanMsg: true,
		},
		{
			name: "an unneeded fallback is skipped when its step succeeds",
			rounds: []llmtest.Round{
				planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"patch","title":"patch","status":"active","fallback":"rewrite"},{"id":"rewrite","title":"rewrite","status":"pending"}]}`),
				planJSON(`{"goal":"g","strategy":"s","steps":[{"id":"patch","title":"patch","status":"completed","fallback":"rewrite"},{"id":"rewrite","title":"rewrite","status":"pending"}]}`),
				llmtest.TextRound("patched")},
			stop: StopCompleted, planStatus: PlanCompleted,
			replyHas: []string{`fallback "rewrite" is not needed and was skipped`},
		},
		{
			name: "a replan with the failed strategy is refused",
			rounds: []llmtest.Round{
				planJSON(`{"goal":"g","strategy":"grep for it","steps":[{"title":"search","status":"active"}]}`),
				planJSON(`{"goal":"g","strategy":"grep for it","steps":[{"title":"search","status":"failed","note":"nothing"}]}`),
				planJSON(`{"goal":"g","strategy":"Grep  for it","steps":[{"title":"search harder","status":"active"}]}`),
				planJSON(`{"goal":"g","strategy":"read the tests","steps":[{"title":"search","status":"active"}]}`),
				planJSON(`{"goal":"g","strategy":"read the tests","steps":[{"title":"read tests","status":"completed"}]}`),
				llmtest.TextRound("found")},
			stop: StopCompleted, planStatus: PlanCompleted, attempt: 1, replanMsg: true,
			replyHas: []string{`plan rejected: strategy "Grep  for it" is the one of attempt 0, which failed`,
				"plan rejected: these steps are the steps of attempt 0, which failed"},
		},
		{
			name: "a replan must name a strategy",
			rounds: []llmtest.Round{
				planJSON(`{"goal":"g","strategy":"one","steps":[{"title":"a","status":"failed"}]}`),
				planJSON(`{"goal":"g","steps":[{"title":"b","status":"active"}]}`),
				planJSON(`{"goal":"g","strategy":"two","steps":[{"title":"b","status":"completed"}]}`),
				llmtest.TextRound("ok")},
			stop: StopCompleted, planStatus: PlanCompleted, attempt: 1, replanMsg: true,
			replyHas: []string{"a new plan after a failed one must name its strategy"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, srv := newSession(t, llmtest.Rounds(c.rounds...), func(o *Options) {
				o.Discipline.Set("stall_calls", 0)
				o.Discipline.Set("plan_continue", false)
			})
			_, st := runTask(t, context.Background(), s, "go")
			p := st.Summary.Plan
			if st.Reason != c.stop || p == nil || p.Status != c.planStatus || p.Attempt != c.attempt {
				t.Fatalf("stop %s (%s); plan %+v", st.Reason, st.Message, p)
			}
			replies := strings.Join(planReplies(srv), "\n")
			for _, want := range c.replyHas {
				if !strings.Contains(replies, want) {
					t.Errorf("no reply says %q; replies:\n%s", want, replies)
				}
			}
			if got := replanSent(srv); got != c.replanMsg {
				t.Errorf("replanning message sent = %v", got)
			}
			active := ""
			if a := p.Active(); a != nil {
				active = a.Title
			}
			if active != c.finalActive {
				t.Errorf("active step %q, want %q", active, c.finalActive)
			}
		})
	}
}

func replanSent(srv *llmtest.Server) bool {
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			if m.Role == "user" && strings.HasPrefix(m.Content, "Replanning, attempt") {
				return true
			}
		}
	}
	return false
}
