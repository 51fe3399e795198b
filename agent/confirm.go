package agent

import (
	"context"
	"fmt"
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
		t.plan.planConfirmed = true
		s.out.send(Notice{Text: "plan confirmation is on, but nobody can answer in headless mode: the plan was approved as it is"})
		return true
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
