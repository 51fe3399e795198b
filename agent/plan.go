package agent

import (
	"time"

	"github.com/keel-dev/keel/discipline"
)

// Plan statuses.
const (
	PlanActive     = "active"
	PlanCompleted  = "completed"
	PlanFailed     = "failed"
	PlanSuperseded = "superseded"
)

// Step statuses, as update_plan takes them: discipline's.
const (
	StepPending   = discipline.StepPending
	StepActive    = discipline.StepActive
	StepCompleted = discipline.StepCompleted
	StepFailed    = discipline.StepFailed
	StepSkipped   = discipline.StepSkipped
)

// Plan is the model's plan for the current task, kept through update_plan:
// a goal with its success criteria and a DAG of steps (seeds 000, 003,
// 004). Revision counts every accepted update of the session's plans.
type Plan struct {
	Goal            string    `json:"goal"`
	SuccessCriteria []string  `json:"success_criteria,omitempty"`
	Strategy        string    `json:"strategy,omitempty"`
	Status          string    `json:"status"`
	Attempt         int       `json:"attempt"`
	Revision        int       `json:"revision,omitempty"`
	Steps           []Step    `json:"steps"`
	Updated         time.Time `json:"updated"`
}

// Step is one step of a plan. ID names it for depends_on, fallback and
// parent; a sub-step (Parent set) is one level deep at most.
type Step struct {
	ID              string   `json:"id"`
	Title           string   `json:"title"`
	Status          string   `json:"status"`
	Note            string   `json:"note,omitempty"`
	DependsOn       []string `json:"depends_on,omitempty"`
	CanFail         bool     `json:"can_fail,omitempty"`
	Fallback        string   `json:"fallback,omitempty"`
	SideEffects     bool     `json:"side_effects,omitempty"`
	Risks           []string `json:"risks,omitempty"`
	SuccessCriteria []string `json:"success_criteria,omitempty"`
	Parent          string   `json:"parent,omitempty"`
}

// Counts returns how many steps are in each status.
func (p Plan) Counts() map[string]int {
	c := make(map[string]int, 5)
	for _, s := range p.Steps {
		c[s.Status]++
	}
	return c
}

// Open lists the steps still pending or active.
func (p Plan) Open() []Step {
	var open []Step
	for _, s := range p.Steps {
		if s.Status == StepPending || s.Status == StepActive {
			open = append(open, s)
		}
	}
	return open
}

// HasSideEffects reports whether any step is marked with side effects.
func (p Plan) HasSideEffects() bool {
	for _, s := range p.Steps {
		if s.SideEffects {
			return true
		}
	}
	return false
}

// Step returns the step with id, or nil.
func (p *Plan) Step(id string) *Step {
	for i := range p.Steps {
		if p.Steps[i].ID == id {
			return &p.Steps[i]
		}
	}
	return nil
}

// Active returns the active step that has no active sub-step (the one
// being worked on), or nil.
func (p *Plan) Active() *Step {
	var found *Step
	for i := range p.Steps {
		st := &p.Steps[i]
		if st.Status != StepActive {
			continue
		}
		if found == nil || st.Parent == found.ID {
			found = st
		}
	}
	return found
}

// Done reports whether a step no longer holds up the steps that depend on
// it (seed 003): completed or skipped, failed when it may fail, or failed
// with its fallback completed.
func (p *Plan) Done(st *Step) bool {
	switch st.Status {
	case StepCompleted, StepSkipped:
		return true
	case StepFailed:
		if st.CanFail {
			return true
		}
		if fb := p.Step(st.Fallback); fb != nil && fb != st {
			return fb.Status == StepCompleted
		}
	}
	return false
}

// clone returns a deep copy, so snapshots never share step slices.
func (p *Plan) clone() *Plan {
	if p == nil {
		return nil
	}
	c := *p
	c.SuccessCriteria = append([]string(nil), p.SuccessCriteria...)
	c.Steps = make([]Step, len(p.Steps))
	for i, st := range p.Steps {
		st.DependsOn = append([]string(nil), st.DependsOn...)
		st.Risks = append([]string(nil), st.Risks...)
		st.SuccessCriteria = append([]string(nil), st.SuccessCriteria...)
		c.Steps[i] = st
	}
	return &c
}
