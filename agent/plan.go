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

// Plan is the model's plan for the current task, kept through update_plan.
type Plan struct {
	Goal     string    `json:"goal"`
	Strategy string    `json:"strategy,omitempty"`
	Status   string    `json:"status"`
	Attempt  int       `json:"attempt"`
	Steps    []Step    `json:"steps"`
	Updated  time.Time `json:"updated"`
}

// Step is one line of a plan.
type Step struct {
	Title  string `json:"title"`
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
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

// clone returns a deep copy, so snapshots never share step slices.
func (p *Plan) clone() *Plan {
	if p == nil {
		return nil
	}
	c := *p
	c.Steps = append([]Step(nil), p.Steps...)
	return &c
}
