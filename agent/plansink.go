package agent

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/keel-dev/keel/discipline"
)

// UpdatePlan applies an update_plan call. It returns the tool's reply, or
// why the update was refused (a replan that repeats a failed attempt).
// A failed step that may fail is let go, one with a fallback activates
// the fallback, any other supersedes the plan: the attempt goes up and
// the next request carries a replanning message.
func (s *Session) UpdatePlan(u PlanUpdate) (reply, refused string) {
	snap, reply, refused := s.conv.update(u, s.now())
	if refused != "" {
		return "", refused
	}
	s.opts.Recorder.plan(snap)
	s.setState(StatePlanning, fmt.Sprintf("revision %d", snap.Revision))
	s.out.send(PlanChanged{Plan: *snap})
	return reply, ""
}

// planFailure is a failed step waiting to be turned into a replanning
// message. attempt is the failed plan's; the next plan is attempt+1, as
// both the tool's reply and the replanning message say.
type planFailure struct {
	step    Step
	attempt int
}

// attemptRecord is a failed plan, which a replan must differ from.
type attemptRecord struct {
	attempt  int
	strategy string
	steps    string // the sorted, normalized step titles
}

func recordOf(p *Plan) attemptRecord {
	return attemptRecord{attempt: p.Attempt, strategy: normalize(p.Strategy), steps: stepSet(p.Steps)}
}

// normalize folds case and spacing, so "Explore first" repeats "explore  first".
func normalize(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// stepSet is a plan's set of step titles, as one comparable string.
func stepSet(steps []Step) string {
	titles := make([]string, 0, len(steps))
	for _, st := range steps {
		t := normalize(st.Title)
		if !contains(titles, t) {
			titles = append(titles, t)
		}
	}
	slices.Sort(titles)
	return strings.Join(titles, "\x00")
}

// repeatsFailure says why a new plan repeats a failed attempt ("" when it
// differs from every one in its strategy and in its set of steps).
func repeatsFailure(next *Plan, failed []attemptRecord) string {
	if len(failed) == 0 {
		return ""
	}
	strategy := normalize(next.Strategy)
	if strategy == "" {
		return fmt.Sprintf("a new plan after a failed one must name its strategy, different from the failed ones (%s)", triedStrategies(failed))
	}
	set := stepSet(next.Steps)
	for _, f := range failed {
		switch {
		case strategy == f.strategy:
			return fmt.Sprintf("strategy %q is the one of attempt %d, which failed; take a different approach (tried: %s)", next.Strategy, f.attempt, triedStrategies(failed))
		case set == f.steps:
			return fmt.Sprintf("these steps are the steps of attempt %d, which failed; a new plan needs a different set of steps, not the same steps again", f.attempt)
		}
	}
	return ""
}

func triedStrategies(failed []attemptRecord) string {
	var out []string
	for _, f := range failed {
		if f.strategy == "" {
			out = append(out, fmt.Sprintf("attempt %d: none named", f.attempt))
			continue
		}
		out = append(out, fmt.Sprintf("attempt %d: %q", f.attempt, f.strategy))
	}
	return strings.Join(out, ", ")
}

// mergePlan builds the next plan from an update. A plan that is no longer
// active (completed, failed, superseded) is replaced by a new attempt.
func mergePlan(prev *Plan, u PlanUpdate, now time.Time) *Plan {
	next := &Plan{Goal: u.Goal, SuccessCriteria: u.SuccessCriteria, Strategy: u.Strategy, Status: PlanActive, Updated: now, Steps: u.steps()}
	if prev != nil {
		next.Attempt = prev.Attempt
		if prev.Status == PlanSuperseded || prev.Status == PlanFailed {
			next.Attempt = prev.Attempt + 1
		}
		if len(next.SuccessCriteria) == 0 && prev.Goal == next.Goal {
			next.SuccessCriteria = prev.SuccessCriteria
		}
		if next.Strategy == "" && prev.Status == PlanActive {
			next.Strategy = prev.Strategy
		}
	}
	return next
}

// newAttempt reports whether an update to prev starts a new attempt.
func newAttempt(prev *Plan) bool {
	return prev != nil && (prev.Status == PlanSuperseded || prev.Status == PlanFailed)
}

func allDone(p *Plan) bool {
	if len(p.Steps) == 0 {
		return false
	}
	for i := range p.Steps {
		if !p.Done(&p.Steps[i]) {
			return false
		}
	}
	return true
}

// newlyFailed returns the steps failed in next that were not failed
// (under the same id) in prev, when prev is the same attempt.
func newlyFailed(prev, next *Plan) []*Step {
	was := map[string]bool{}
	if prev != nil && prev.Status == PlanActive {
		for _, st := range prev.Steps {
			if st.Status == StepFailed {
				was[st.ID] = true
			}
		}
	}
	var out []*Step
	for i, st := range next.Steps {
		if st.Status == StepFailed && !was[st.ID] {
			out = append(out, &next.Steps[i])
		}
	}
	return out
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
			return &stop{reason: StopPlanFailed, message: fmt.Sprintf("%s failed: %s", count(len(t.plan.failedPlans), "plan"), strings.Join(t.plan.failedPlans, "; "))}
		}
		s.setState(StateReplanning, fmt.Sprintf("attempt %d", ev.attempt+1))
		t.checkpoints.pending = append(t.checkpoints.pending, discipline.ReplanMessage(ev.step.Title, ev.step.Note, t.plan.failedPlans, ev.attempt+1))
	}
	return nil
}

// failActiveStep marks the active plan's step being worked on failed
// because why (a guard halted it, or the model's reflection asked to
// replan). A step that may fail or has a fallback is settled so, and the
// model is told; otherwise the plan is superseded and the task replans
// instead of stopping. It reports false when there is no active step.
func (t *task) failActiveStep(why string) bool {
	s := t.s
	snap, note := s.conv.failActive(why, s.now())
	if snap == nil {
		return false
	}
	s.opts.Recorder.plan(snap)
	s.out.send(PlanChanged{Plan: *snap})
	if note != "" {
		t.checkpoints.pending = append(t.checkpoints.pending, fmt.Sprintf("keel stopped the step you were on (%s): %s.", why, note))
	}
	return true
}
