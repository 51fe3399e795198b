package discipline

import "fmt"

// KindDecompose is the decompose guard's request for sub-steps.
const KindDecompose Kind = "decompose"

var decomposeCalls = intSetting("decompose_calls", 12, "tool calls on one plan step with no progress (no edit, no step completed) before keel asks for its sub-steps; 0 disables")

// decomposeGuard asks for a stalled step's sub-steps (seed 002's goal
// decomposition, seed 004's DECOMPOSING), once per step; a sub-step
// cannot be split again (depth two), so a stalled sub-step is asked to
// finish or fail instead.
var decomposeGuard = &Guard{
	Name: "decompose", Kind: KindDecompose, Rank: 5,
	Settings: []*Setting{decomposeCalls},
	Round:    decompose,
}

// decomposeMark follows the step being worked on.
type decomposeMark struct {
	step  string // its id and title
	since int    // the tool count when it was first seen active
	asked bool   // its sub-steps were asked for
}

func (m *decomposeMark) clone() guardState { c := *m; return &c }

// workedOn is the step being worked on: the active step with no active
// sub-step; parent is its parent's title ("" at the top level).
func (p PlanView) workedOn() (step PlanStep, parent string, ok bool) {
	var found *PlanStep
	for i := range p.Steps {
		st := &p.Steps[i]
		if st.Status == StepActive && (found == nil || p.Parents[st.Title] == found.Title) {
			found = st
		}
	}
	if found == nil {
		return PlanStep{}, "", false
	}
	return *found, p.Parents[found.Title], true
}

// decompose fires when the step being worked on has gone DecomposeCalls
// tool calls without progress, once per step.
func decompose(sum RoundSummary, p *Policy, s *State) *Intervention {
	n := p.num(decomposeCalls)
	if n <= 0 || sum.EndedTurn {
		return nil
	}
	m := stateOf[decomposeMark](s, "decompose")
	st, parent, ok := sum.Plan.workedOn()
	if !ok {
		m.step = ""
		return nil
	}
	if key := parent + "\x00" + st.Title; key != m.step {
		m.step, m.since, m.asked = key, s.toolCalls-len(sum.Calls), false
	}
	calls := s.toolCalls - max(m.since, s.progressAt)
	if m.asked || calls < n {
		return nil
	}
	m.asked = true
	in := &Intervention{
		Kind: KindDecompose, AtToolCall: s.toolCalls, Action: Inject,
		Why:     fmt.Sprintf("step %q: %d tool calls with no edit and no step completed (decompose at %d)", st.Title, calls, n),
		Figures: map[string]int{"calls": calls, "decompose_calls": n},
	}
	if parent != "" {
		in.Message = fmt.Sprintf("The sub-step %q has taken %d tool calls with no edit and no step completed. Sub-steps go one level deep, so it cannot be split again: finish it with the next concrete action, or mark it failed with update_plan (a note saying why) so the plan can change.", st.Title, calls)
		in.Note = fmt.Sprintf("sub-step %q: %d calls without progress; finish it or mark it failed.", st.Title, calls)
		return in
	}
	in.Message = fmt.Sprintf("The step %q has taken %d tool calls with no edit and no step completed. Split it into 2 to 6 concrete sub-steps: send the plan with update_plan, each sub-step with \"parent\" set to this step's id and the first one active (or answer with reflect, adjustment decompose and sub_steps). Then work through them.", st.Title, calls)
	in.Note = fmt.Sprintf("step %q: %d calls without progress; split it into sub-steps (update_plan, parent: its id).", st.Title, calls)
	return in
}
