package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/tools"
)

// PlanToolName is the tool the model keeps its plan with. The session
// owns it: every session offers it, and the plan it records is the
// session's.
const PlanToolName = "update_plan"

// PlanUpdate is the whole plan as the model sends it with update_plan;
// its tags generate the tool's schema.
type PlanUpdate struct {
	Goal     string           `json:"goal" description:"The task's goal in one sentence."`
	Strategy string           `json:"strategy,omitempty" description:"One line: the approach you are taking."`
	Steps    []PlanStepUpdate `json:"steps" description:"The complete list of steps, every time (not just the changed ones)."`
}

// PlanStepUpdate is one step of a PlanUpdate; its statuses are discipline's.
type PlanStepUpdate struct {
	Title  string `json:"title" description:"What the step does, short and concrete."`
	Status string `json:"status" description:"At most one step may be active."`
	Note   string `json:"note,omitempty" description:"Why it failed or was skipped, or what was found."`
}

const planToolDesc = `Write down or update your plan for a task that needs three or more steps: the goal, a one-line strategy, and the complete step list with statuses. Send the whole list each time. Keep exactly one step active while working; mark a step failed (with a note saying why) to replan. Not needed for small tasks or questions.`

// planTool is update_plan bound to s.
func (s *Session) planTool() tools.Tool {
	enums := map[string][]string{"status": discipline.StepStatuses()}
	return tools.NewTool(PlanToolName, planToolDesc, tools.ReadOnly, enums, func(ctx context.Context, p PlanUpdate) (tools.Result, error) {
		if msg := ValidatePlan(p); msg != "" {
			return tools.ErrResult("plan rejected: %s", msg), nil
		}
		return tools.Result{Output: s.UpdatePlan(p)}, nil
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
	known := discipline.StepStatuses()
	var active []string
	for i, st := range p.Steps {
		switch {
		case strings.TrimSpace(st.Title) == "":
			return fmt.Sprintf("step %d has no title", i+1)
		case !contains(known, st.Status):
			return fmt.Sprintf("step %d has status %q; use %s", i+1, st.Status, orList(known))
		case st.Status == StepActive:
			active = append(active, fmt.Sprintf("%d (%q)", i+1, st.Title))
		}
	}
	if len(active) > 1 {
		return fmt.Sprintf("steps %s are all active; keep exactly one step active and mark the others pending or completed", strings.Join(active, " and "))
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// orList is "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
