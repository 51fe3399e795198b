package agent

import (
	"fmt"
	"strings"
	"time"
)

// planVersion is bumped by every update_plan.
func (c *conversation) planVersion() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.planSeq
}

// update applies an update_plan call and returns the new plan and the
// tool's reply, or why it was refused: a new attempt after a failure that
// repeats a failed attempt's strategy or steps. Failed steps are settled
// (settleFailures); one that needs a replan supersedes the plan and
// leaves a replanning message for the task.
func (c *conversation) update(u PlanUpdate, now time.Time) (*Plan, string, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prev := c.plan.clone()
	next := mergePlan(prev, u, now)
	if newAttempt(prev) {
		if why := repeatsFailure(next, c.failedAttempts); why != "" {
			return nil, "", why
		}
	}
	notes, failed := settleFailures(next, newlyFailed(prev, next))
	notes = append(notes, skipUnneededFallbacks(next)...)
	if allDone(next) {
		next.Status = PlanCompleted
	}
	reply := fmt.Sprintf("plan updated: %s, %s", count(len(next.Steps), "step"), countLine(next))
	for _, n := range notes {
		reply += "; " + n
	}
	if failed != nil && next.Status == PlanActive {
		c.supersede(next, *failed)
		reply += fmt.Sprintf("; step %q failed, so this plan is superseded: make a new plan with a different strategy and different steps (attempt %d)", failed.Title, next.Attempt+1)
	}
	c.commit(next)
	return next.clone(), reply, ""
}

// supersede marks the plan superseded by the failure of step, records the
// attempt a replan must differ from, and leaves the replanning message's
// event for the task. The caller holds c.mu.
func (c *conversation) supersede(p *Plan, step Step) {
	p.Status = PlanSuperseded
	c.failedAttempts = append(c.failedAttempts, recordOf(p))
	c.planEvents = append(c.planEvents, planFailure{step: step, attempt: p.Attempt})
}

// commit makes p the plan, as a new revision. The caller holds c.mu.
func (c *conversation) commit(p *Plan) {
	c.planSeq++
	p.Revision = c.planSeq
	c.plan = p
}

// settleFailures applies seed 003's rules to newly failed steps: a step
// that may fail is let go; a step with a fallback activates the fallback
// (before any replan); the first other failure needs a replan and is
// returned. notes are lines for the tool's reply.
func settleFailures(p *Plan, failed []*Step) (notes []string, replan *Step) {
	for _, st := range failed {
		switch {
		case st.CanFail:
			notes = append(notes, fmt.Sprintf("step %q failed and may fail (can_fail), so the plan goes on without replanning", st.Title))
		case activateFallback(p, st):
			notes = append(notes, fmt.Sprintf("step %q failed, so keel activated its fallback %q: work on it now (no replan)", st.Title, p.Step(st.Fallback).Title))
		case replan == nil:
			replan = st
		}
	}
	return notes, replan
}

// activateFallback makes a failed step's fallback the active step, when
// it has one that can still run (pending or active, its dependencies
// done). The step that was being worked on goes back to pending.
func activateFallback(p *Plan, st *Step) bool {
	fb := p.Step(st.Fallback)
	if fb == nil || (fb.Status != StepPending && fb.Status != StepActive) {
		return false
	}
	for _, d := range fb.DependsOn {
		if dep := p.Step(d); dep == nil || !p.Done(dep) {
			return false
		}
	}
	for i := range p.Steps {
		other := &p.Steps[i]
		if other.Status == StepActive && other.ID != fb.ID && other.ID != fb.Parent {
			other.Status = StepPending
		}
	}
	fb.Status = StepActive
	return true
}

// skipUnneededFallbacks marks skipped a pending fallback whose steps all
// succeeded, so a plan whose steps worked can complete.
func skipUnneededFallbacks(p *Plan) []string {
	var notes []string
	for i := range p.Steps {
		fb := &p.Steps[i]
		if fb.Status != StepPending {
			continue
		}
		owners, ok := 0, true
		for _, st := range p.Steps {
			if st.Fallback != fb.ID {
				continue
			}
			owners++
			ok = ok && (st.Status == StepCompleted || st.Status == StepSkipped)
		}
		if owners > 0 && ok && !dependedOn(p, fb.ID) {
			fb.Status, fb.Note = StepSkipped, "not needed: the step it backs up succeeded"
			notes = append(notes, fmt.Sprintf("fallback %q is not needed and was skipped", fb.Title))
		}
	}
	return notes
}

func dependedOn(p *Plan, id string) bool {
	for _, st := range p.Steps {
		if contains(st.DependsOn, id) {
			return true
		}
	}
	return false
}

// markFailed marks the plan failed (plan_failed), unless it is already
// completed or failed; it returns the new plan, or nil when unchanged.
func (c *conversation) markFailed(now time.Time) *Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plan == nil || c.plan.Status == PlanCompleted || c.plan.Status == PlanFailed {
		return nil
	}
	next := c.plan.clone()
	next.Status, next.Updated = PlanFailed, now
	c.commit(next)
	return next.clone()
}

// failActive marks the active plan's step being worked on failed because
// of why, and settles it like a failure the model reported: let go
// (can_fail), its fallback activated, or the plan superseded. It returns
// the new plan (nil when there is no active step) and, when no replan
// follows, a line for the model saying what keel did.
func (c *conversation) failActive(why string, now time.Time) (*Plan, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plan == nil || c.plan.Status != PlanActive {
		return nil, ""
	}
	next := c.plan.clone()
	st := next.Active()
	if st == nil {
		return nil, ""
	}
	st.Status, st.Note = StepFailed, why
	next.Updated = now
	notes, failed := settleFailures(next, []*Step{st})
	if failed != nil {
		c.supersede(next, *failed)
	}
	c.commit(next)
	return next.clone(), strings.Join(notes, "; ")
}

// Plan returns a copy of the current plan, or nil.
func (c *conversation) Plan() *Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.plan.clone()
}

// canDecompose says why the plan's step being worked on cannot be split
// ("" when it can): there must be one, and it must not be a sub-step
// itself (sub-steps go one level deep).
func (c *conversation) canDecompose() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plan == nil || c.plan.Status != PlanActive {
		return "decompose splits the active plan step, and there is no active plan: record one with update_plan first"
	}
	st := c.plan.Active()
	switch {
	case st == nil:
		return "decompose splits the active plan step, and no step is active"
	case st.Parent != "":
		return fmt.Sprintf("the active step %q is already a sub-step of %q, and sub-steps go one level deep: replan instead", st.Title, st.Parent)
	}
	return ""
}

// decompose gives the step being worked on the sub-steps titles (ids
// "PARENT.1", "PARENT.2", ...), the first one active. It returns the new
// plan, or nil when the step cannot be split (canDecompose).
func (c *conversation) decompose(titles []string, now time.Time) *Plan {
	if c.canDecompose() != "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	next := c.plan.clone()
	parent := next.Active()
	at := 0
	for i := range next.Steps {
		if next.Steps[i].ID == parent.ID {
			at = i + 1
		}
	}
	subs := make([]Step, 0, len(titles))
	for i, title := range titles {
		st := Step{ID: fmt.Sprintf("%s.%d", parent.ID, i+1), Title: strings.TrimSpace(title), Status: StepPending, Parent: parent.ID}
		for next.Step(st.ID) != nil {
			st.ID += "'"
		}
		if i == 0 {
			st.Status = StepActive
		}
		subs = append(subs, st)
	}
	next.Steps = append(next.Steps[:at], append(subs, next.Steps[at:]...)...)
	next.Updated = now
	c.commit(next)
	return next.clone()
}

// abandon supersedes the active plan because the model's reflection said
// it no longer fits, and leaves a replanning message for the task. It
// reports false when there is no active plan.
func (c *conversation) abandon(why string, now time.Time) *Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plan == nil || c.plan.Status != PlanActive {
		return nil
	}
	next := c.plan.clone()
	step := Step{Title: "the plan", Note: why}
	if st := next.Active(); st != nil {
		st.Status, st.Note = StepFailed, why
		step = *st
	}
	next.Updated = now
	c.supersede(next, step)
	c.commit(next)
	return next.clone()
}
