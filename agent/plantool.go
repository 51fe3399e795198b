package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
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
	Goal            string           `json:"goal" description:"The task's goal in one sentence."`
	SuccessCriteria Criteria         `json:"success_criteria,omitempty" description:"How to tell the goal is reached: checkable facts (a test passes, a file holds X)."`
	Strategy        string           `json:"strategy,omitempty" description:"One line: the approach you are taking. After a failed plan, a different one."`
	Steps           []PlanStepUpdate `json:"steps" description:"The complete list of steps, every time (not just the changed ones)."`
}

// PlanStepUpdate is one step of a PlanUpdate; its statuses are discipline's.
type PlanStepUpdate struct {
	ID              StepID   `json:"id,omitempty" description:"A short unique id such as \"s1\"; depends_on, fallback and parent name steps by it. Default: the step's position (1, 2, ...)."`
	Title           string   `json:"title" description:"What the step does, short and concrete."`
	Status          string   `json:"status" description:"At most one step may be active (a step with sub-steps may be active beside its active sub-step)."`
	Note            string   `json:"note,omitempty" description:"Why it failed or was skipped, or what was found."`
	DependsOn       []StepID `json:"depends_on,omitempty" description:"Ids of the steps that must be done first; keel refuses to make this step active or completed before them."`
	CanFail         bool     `json:"can_fail,omitempty" description:"Its failure is acceptable: the plan goes on, no replanning."`
	Fallback        StepID   `json:"fallback,omitempty" description:"Id of the step to run if this one fails: keel activates it instead of replanning."`
	SideEffects     bool     `json:"side_effects,omitempty" description:"The step changes files or state (edits, writes, commands that change things)."`
	Risks           []string `json:"risks,omitempty" description:"What could go wrong."`
	SuccessCriteria Criteria `json:"success_criteria,omitempty" description:"How to tell the step worked."`
	Parent          StepID   `json:"parent,omitempty" description:"Id of the step this one is a sub-step of (one level deep at most)."`
}

// StepID is a step's id. The model may send it as a string or a number.
type StepID string

// UnmarshalJSON takes "s1" or 1.
func (id *StepID) UnmarshalJSON(b []byte) error {
	if n := bytes.TrimSpace(b); len(n) > 0 && n[0] != '"' {
		var f json.Number
		if err := json.Unmarshal(n, &f); err != nil {
			return err
		}
		*id = StepID(f.String())
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*id = StepID(strings.TrimSpace(s))
	return nil
}

// Criteria are success criteria: a list, or one string.
type Criteria []string

// UnmarshalJSON takes ["a", "b"] or "a".
func (c *Criteria) UnmarshalJSON(b []byte) error {
	if n := bytes.TrimSpace(b); len(n) > 0 && n[0] == '"' {
		var s string
		if err := json.Unmarshal(n, &s); err != nil {
			return err
		}
		*c = Criteria{s}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	*c = list
	return nil
}

const planToolDesc = `Write down or update your plan for a task that needs three or more steps: the goal and its success criteria, a one-line strategy, and the complete step list with statuses. Send the whole list each time. Steps may name dependencies (depends_on), a fallback step, can_fail, side_effects and risks; keel enforces the order. Keep exactly one step active while working; mark a step failed (with a note saying why): its fallback runs if it has one, a can_fail step is let go, otherwise you replan with a different strategy and different steps. Not needed for small tasks or questions.`

// planTool is update_plan bound to s.
func (s *Session) planTool() tools.Tool {
	enums := map[string][]string{"status": discipline.StepStatuses()}
	return tools.NewTool(PlanToolName, planToolDesc, tools.ReadOnly, enums, func(ctx context.Context, p PlanUpdate) (tools.Result, error) {
		if msg := ValidatePlan(p); msg != "" {
			return tools.ErrResult("plan rejected: %s", msg), nil
		}
		reply, refused := s.UpdatePlan(p)
		if refused != "" {
			return tools.ErrResult("plan rejected: %s", refused), nil
		}
		return tools.Result{Output: reply}, nil
	})
}

// steps turns the update's steps into plan steps, ids defaulting to the
// step's position.
func (u PlanUpdate) steps() []Step {
	out := make([]Step, len(u.Steps))
	for i, st := range u.Steps {
		id := string(st.ID)
		if id == "" {
			id = strconv.Itoa(i + 1)
		}
		out[i] = Step{
			ID: id, Title: strings.TrimSpace(st.Title), Status: st.Status, Note: st.Note,
			DependsOn: ids(st.DependsOn), CanFail: st.CanFail, Fallback: string(st.Fallback),
			SideEffects: st.SideEffects, Risks: st.Risks, SuccessCriteria: st.SuccessCriteria, Parent: string(st.Parent),
		}
	}
	return out
}

func ids(in []StepID) []string {
	if len(in) == 0 {
		return nil
	}
	out := make([]string, len(in))
	for i, id := range in {
		out[i] = string(id)
	}
	return out
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
