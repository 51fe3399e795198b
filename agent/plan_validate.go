package agent

import (
	"fmt"
	"strings"

	"github.com/keel-dev/keel/discipline"
)

// ValidatePlan returns "" for a valid plan, else what to fix, in one
// sentence the model can act on: a goal and at least one step; titles,
// known statuses and unique ids; dependencies, fallbacks and parents that
// name other steps of the plan; no dependency cycle; sub-steps one level
// deep; at most one step being worked on; and the order kept: no step
// active or completed before its dependencies are done.
func ValidatePlan(u PlanUpdate) string {
	if strings.TrimSpace(u.Goal) == "" {
		return "goal is required"
	}
	if len(u.Steps) == 0 {
		return "steps is empty; send the complete list of steps"
	}
	p := &Plan{Goal: u.Goal, Steps: u.steps()}
	for _, check := range []func(*Plan) string{checkSteps, checkRefs, checkCycles, checkActive, checkOrder} {
		if msg := check(p); msg != "" {
			return msg
		}
	}
	return ""
}

// name is how a message names a step: its title and id.
func name(st *Step) string { return fmt.Sprintf("%q (id %s)", st.Title, st.ID) }

// checkSteps checks titles, statuses and unique ids.
func checkSteps(p *Plan) string {
	known := discipline.StepStatuses()
	seen := map[string]int{}
	for i := range p.Steps {
		st := &p.Steps[i]
		switch {
		case st.Title == "":
			return fmt.Sprintf("step %d has no title", i+1)
		case !contains(known, st.Status):
			return fmt.Sprintf("step %d has status %q; use %s", i+1, st.Status, orList(known))
		}
		if j, dup := seen[st.ID]; dup {
			return fmt.Sprintf("steps %d and %d both have id %q; give each step its own id", j+1, i+1, st.ID)
		}
		seen[st.ID] = i
	}
	return ""
}

// checkRefs checks that depends_on, fallback and parent name other steps,
// and that sub-steps are one level deep.
func checkRefs(p *Plan) string {
	for i := range p.Steps {
		st := &p.Steps[i]
		for _, d := range st.DependsOn {
			if msg := ref(p, st, d, "depends on"); msg != "" {
				return msg
			}
		}
		if st.Fallback != "" {
			if msg := ref(p, st, st.Fallback, "has fallback"); msg != "" {
				return msg + "; a fallback must be a step of the plan"
			}
		}
		if st.Parent == "" {
			continue
		}
		if msg := ref(p, st, st.Parent, "has parent"); msg != "" {
			return msg
		}
		if gp := p.Step(st.Parent).Parent; gp != "" {
			return fmt.Sprintf("step %s is a sub-step of %q, itself a sub-step of %q: sub-steps go one level deep at most", name(st), st.Parent, gp)
		}
	}
	return ""
}

// ref checks that id names another step of p.
func ref(p *Plan, st *Step, id, what string) string {
	switch {
	case id == st.ID:
		return fmt.Sprintf("step %s %s itself", name(st), what)
	case p.Step(id) == nil:
		return fmt.Sprintf("step %s %s %q, which is not a step of the plan (ids: %s)", name(st), what, id, strings.Join(stepIDs(p), ", "))
	}
	return ""
}

func stepIDs(p *Plan) []string {
	out := make([]string, len(p.Steps))
	for i, st := range p.Steps {
		out[i] = st.ID
	}
	return out
}

// checkCycles finds a cycle of dependencies (a step waiting on itself
// through others) and names it.
func checkCycles(p *Plan) string {
	const (
		unseen = iota
		onPath
		finished
	)
	mark := map[string]int{}
	var path []string
	var visit func(id string) []string
	visit = func(id string) []string {
		switch mark[id] {
		case onPath:
			for i, x := range path {
				if x == id {
					return append(append([]string(nil), path[i:]...), id)
				}
			}
		case finished:
			return nil
		}
		mark[id] = onPath
		path = append(path, id)
		for _, d := range p.Step(id).DependsOn {
			if c := visit(d); c != nil {
				return c
			}
		}
		path = path[:len(path)-1]
		mark[id] = finished
		return nil
	}
	for _, st := range p.Steps {
		if c := visit(st.ID); c != nil {
			return fmt.Sprintf("the dependencies form a cycle (%s): no step of it could ever start", strings.Join(c, " → "))
		}
	}
	return ""
}

// checkActive allows one step being worked on: one active step, or an
// active step with one active sub-step.
func checkActive(p *Plan) string {
	var leaves []string
	for i := range p.Steps {
		st := &p.Steps[i]
		if st.Status != StepActive {
			continue
		}
		if hasActiveChild(p, st.ID) {
			continue
		}
		leaves = append(leaves, fmt.Sprintf("%d (%q)", i+1, st.Title))
	}
	if len(leaves) > 1 {
		return fmt.Sprintf("steps %s are all active; keep exactly one step active and mark the others pending or completed", strings.Join(leaves, " and "))
	}
	return ""
}

func hasActiveChild(p *Plan, id string) bool {
	for _, st := range p.Steps {
		if st.Parent == id && st.Status == StepActive {
			return true
		}
	}
	return false
}

// checkOrder refuses a step active or completed before its dependencies
// are done, and a step completed while its sub-steps are open.
func checkOrder(p *Plan) string {
	for i := range p.Steps {
		st := &p.Steps[i]
		if st.Status != StepActive && st.Status != StepCompleted {
			continue
		}
		var waiting []string
		for _, d := range st.DependsOn {
			if dep := p.Step(d); !p.Done(dep) {
				waiting = append(waiting, fmt.Sprintf("%s, %s", name(dep), dep.Status))
			}
		}
		if len(waiting) > 0 {
			return fmt.Sprintf("step %s cannot be %s before its dependencies are done: %s. Finish them first (or mark them skipped, or failed if they may fail)",
				name(st), st.Status, strings.Join(waiting, "; "))
		}
		if st.Status == StepCompleted {
			for _, c := range p.Steps {
				if c.Parent == st.ID && (c.Status == StepPending || c.Status == StepActive) {
					return fmt.Sprintf("step %s cannot be completed while its sub-step %s is %s", name(st), name(&c), c.Status)
				}
			}
		}
	}
	return ""
}
