package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/keel-dev/keel/tools"
)

// PlanConfirmer shows a plan to the user before its first side effect
// (plan.confirm, --confirm-plan). The TUI implements it; headless has none.
type PlanConfirmer interface {
	ConfirmPlan(ctx context.Context, p Plan) (PlanVerdict, error)
}

// PlanVerdict is the user's answer to a plan: approve it, send feedback
// for the model to change it, or cancel the task.
type PlanVerdict struct {
	Approve  bool
	Cancel   bool
	Feedback string
}

// confirmPlan holds a side-effecting call until the task's plan is
// approved. It reports whether the call may go on; a call held back gets
// a result telling the model why.
func (t *task) confirmPlan(ctx context.Context, o *outcome) bool {
	s := t.s
	if !s.opts.ConfirmPlan || t.plan.planConfirmed || s.readOnly(o.call.Name) {
		return true
	}
	touched := s.conv.planVersion() != t.plan.planSeqAtStart
	plan := s.Plan()
	if plan == nil || !touched {
		return true // no plan for this task: nothing to confirm
	}
	if s.opts.Confirmer == nil {
		return t.confirmByRule(o)
	}
	v, err := s.opts.Confirmer.ConfirmPlan(ctx, *plan)
	switch {
	case err != nil || v.Cancel:
		t.plan.cancelAsked.Store(err == nil)
		o.setCancelled()
		return false
	case v.Approve:
		t.plan.planConfirmed = true
		return true
	}
	msg := fmt.Sprintf("not run: the user reviewed your plan before any change and wants it changed: %s. Update the plan with %s, then go on.", v.Feedback, PlanToolName)
	o.result.IsError, o.result.Output, o.output = true, msg, msg
	return false
}

// confirmByRule is --confirm-plan with nobody to ask (headless): a call
// a permission rule (or --yolo) allows runs, the rule standing for the
// user's approval; otherwise the plan is refused and the task stops with
// plan_unconfirmed, before any side effect.
func (t *task) confirmByRule(o *outcome) bool {
	s := t.s
	if p := s.opts.Permissions; p == nil || p.Decide(o.call.Name, json.RawMessage(o.call.Arguments)).Verdict == tools.Allow {
		t.plan.planConfirmed = true
		s.out.send(Notice{Text: "plan confirmation is on and nobody can answer in headless mode: a permission rule allows " + o.call.Name + ", so the plan goes on"})
		return true
	}
	t.plan.unconfirmed.Store(true)
	msg := "not run: plan confirmation is on (--confirm-plan), this plan has side effects, and nobody can approve it in headless mode; keel stopped the task"
	o.result.IsError, o.result.Output, o.output = true, msg, msg
	return false
}
