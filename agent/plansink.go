package agent

import (
	"fmt"
	"strings"
	"time"

	"github.com/keel-dev/keel/discipline"
)

// UpdatePlan replaces the plan's steps. A step newly marked failed
// supersedes the plan: the attempt goes up and the next request carries a
// replanning message. When every step is done the plan is completed.
func (s *Session) UpdatePlan(u PlanUpdate) string {
	snap, reply := s.conv.update(u, s.now())
	s.opts.Recorder.plan(snap)
	s.setState(StatePlanning, "")
	s.out.send(PlanChanged{Plan: *snap})
	return reply
}

// planFailure is a failed step waiting to be turned into a replanning
// message. attempt is the failed plan's; the next plan is attempt+1, as
// both the tool's reply and the replanning message say.
type planFailure struct {
	step    Step
	attempt int
}

// mergePlan builds the next plan from an update. A plan that is no longer
// active (completed, failed, superseded) is replaced by a new attempt.
func mergePlan(prev *Plan, u PlanUpdate, now time.Time) *Plan {
	next := &Plan{Goal: u.Goal, Strategy: u.Strategy, Status: PlanActive, Updated: now}
	if prev != nil {
		next.Attempt = prev.Attempt
		if prev.Status == PlanSuperseded || prev.Status == PlanFailed {
			next.Attempt = prev.Attempt + 1
		}
		if next.Goal == "" {
			next.Goal = prev.Goal
		}
		if next.Strategy == "" && prev.Status == PlanActive {
			next.Strategy = prev.Strategy
		}
	}
	for _, st := range u.Steps {
		next.Steps = append(next.Steps, Step(st))
	}
	if allDone(next.Steps) {
		next.Status = PlanCompleted
	}
	return next
}

func allDone(steps []Step) bool {
	if len(steps) == 0 {
		return false
	}
	for _, st := range steps {
		if st.Status != StepCompleted && st.Status != StepSkipped {
			return false
		}
	}
	return true
}

// newlyFailed returns the first step failed in next that was not failed
// (under the same title) in prev.
func newlyFailed(prev, next *Plan) *Step {
	was := map[string]bool{}
	if prev != nil && prev.Status == PlanActive {
		for _, st := range prev.Steps {
			if st.Status == StepFailed {
				was[st.Title] = true
			}
		}
	}
	for i, st := range next.Steps {
		if st.Status == StepFailed && !was[st.Title] {
			return &next.Steps[i]
		}
	}
	return nil
}

func countLine(p *Plan) string {
	c := p.Counts()
	parts := []string{}
	for _, k := range discipline.StepStatuses() {
		if c[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[k], k))
		}
	}
	return strings.Join(parts, ", ")
}

// replanMessages turns failed plans into replanning messages, and stops
// the task with plan_failed when the attempts are used up.
func (t *task) replanMessages() *stop {
	s := t.s
	for _, ev := range s.conv.takePlanEvents() {
		t.plan.failedPlans = append(t.plan.failedPlans, ev.step.Title+": "+ev.step.Note)
		if max := s.opts.MaxBacktracks; max > 0 && len(t.plan.failedPlans) >= max {
			s.markPlanFailed()
			return &stop{reason: StopPlanFailed, message: fmt.Sprintf("%d plans failed: %s", len(t.plan.failedPlans), strings.Join(t.plan.failedPlans, "; "))}
		}
		s.setState(StateReplanning, fmt.Sprintf("attempt %d", ev.attempt+1))
		t.checkpoints.pending = append(t.checkpoints.pending, discipline.ReplanMessage(ev.step.Title, ev.step.Note, t.plan.failedPlans, ev.attempt+1))
	}
	return nil
}

// failActiveStep marks the active plan's active step failed because a
// guard halted it: the plan is superseded and the task replans instead of
// stopping. It reports false when there is no active step to fail.
func (s *Session) failActiveStep(why string) bool {
	snap := s.conv.failActive(why, s.now())
	if snap == nil {
		return false
	}
	s.opts.Recorder.plan(snap)
	s.out.send(PlanChanged{Plan: *snap})
	return true
}
