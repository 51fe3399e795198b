package tools

import (
	"context"
	"fmt"
	"strings"
)

// Step statuses accepted by update_plan.
const (
	StepPending   = "pending"
	StepActive    = "active"
	StepCompleted = "completed"
	StepFailed    = "failed"
	StepSkipped   = "skipped"
)

// PlanUpdate is the whole plan as the model sends it with update_plan.
// It is both the tool's params (its tags generate the schema) and what a
// PlanSink receives.
type PlanUpdate struct {
	Goal     string     `json:"goal" description:"The task's goal in one sentence."`
	Strategy string     `json:"strategy,omitempty" description:"One line: the approach you are taking."`
	Steps    []PlanStep `json:"steps" description:"The complete list of steps, every time (not just the changed ones)."`
}

// PlanStep is one step of a PlanUpdate.
type PlanStep struct {
	Title  string `json:"title" description:"What the step does, short and concrete."`
	Status string `json:"status" enum:"pending,active,completed,failed,skipped" description:"At most one step may be active."`
	Note   string `json:"note,omitempty" description:"Why it failed or was skipped, or what was found."`
}

const updatePlanDesc = `Write down or update your plan for a task that needs three or more steps: the goal, a one-line strategy, and the complete step list with statuses. Send the whole list each time. Keep exactly one step active while working; mark a step failed (with a note saying why) to replan. Not needed for small tasks or questions.`

func newUpdatePlan(sink PlanSink) Tool {
	return newTyped(NameUpdatePlan, updatePlanDesc, ReadOnly, func(ctx context.Context, p PlanUpdate) (Result, error) {
		if msg := ValidatePlan(p); msg != "" {
			return errResult("plan rejected: %s", msg), nil
		}
		if sink == nil {
			return Result{Output: "plan recorded:\n" + p.String()}, nil
		}
		out, err := sink.UpdatePlan(ctx, p)
		if err != nil {
			return Result{}, fmt.Errorf("update plan: %w", err)
		}
		return Result{Output: out}, nil
	})
}

// ValidatePlan returns "" for a valid plan, else what to fix: a goal and
// at least one step, known statuses, titles, and at most one active step.
func ValidatePlan(p PlanUpdate) string {
	if strings.TrimSpace(p.Goal) == "" {
		return "goal is required"
	}
	if len(p.Steps) == 0 {
		return "steps is empty; send the complete list of steps"
	}
	active := []string{}
	for i, s := range p.Steps {
		if strings.TrimSpace(s.Title) == "" {
			return fmt.Sprintf("step %d has no title", i+1)
		}
		switch s.Status {
		case StepPending, StepCompleted, StepFailed, StepSkipped:
		case StepActive:
			active = append(active, fmt.Sprintf("%d (%q)", i+1, s.Title))
		default:
			return fmt.Sprintf("step %d has status %q; use pending, active, completed, failed or skipped", i+1, s.Status)
		}
	}
	if len(active) > 1 {
		return fmt.Sprintf("steps %s are all active; keep exactly one step active and mark the others pending or completed", strings.Join(active, " and "))
	}
	return ""
}

// String renders the plan as a checklist.
func (p PlanUpdate) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "goal: %s\n", p.Goal)
	if p.Strategy != "" {
		fmt.Fprintf(&b, "strategy: %s\n", p.Strategy)
	}
	marks := map[string]string{StepPending: "[ ]", StepActive: "[>]", StepCompleted: "[x]", StepFailed: "[!]", StepSkipped: "[-]"}
	for _, s := range p.Steps {
		fmt.Fprintf(&b, "%s %s", marks[s.Status], s.Title)
		if s.Note != "" {
			fmt.Fprintf(&b, " — %s", s.Note)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
