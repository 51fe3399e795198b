package discipline

import "fmt"

// KindStall is the stall guard's nudge.
const KindStall Kind = "stall"

var stallCalls = intSetting("stall_calls", 30, "nudge after this many calls with no edit or plan progress; 0 disables")

var stallGuard = &Guard{
	Name: "stall", Kind: KindStall, Rank: 6,
	Settings: []*Setting{stallCalls},
	Round:    stall,
}

// stallMark is the tool count at the last stall nudge.
type stallMark struct{ nudgedAt int }

func (m *stallMark) clone() guardState { c := *m; return &c }

// stall nudges after StallCalls tool calls with no edit and no plan step
// completed, then again only after another StallCalls. It never halts and
// says a read-only task may carry on: audits are legitimate.
func stall(sum RoundSummary, p *Policy, s *State) *Intervention {
	every := p.num(stallCalls)
	if every <= 0 || sum.EndedTurn {
		return nil
	}
	mark := stateOf[stallMark](s, "stall")
	if s.toolCalls-max(s.progressAt, mark.nudgedAt) < every {
		return nil
	}
	mark.nudgedAt = s.toolCalls
	since := s.toolCalls - s.progressAt
	return &Intervention{
		Kind:       KindStall,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message: fmt.Sprintf("Progress check: %s since the last edit or completed plan step. %s If the task is a read-only review, carry on; otherwise, if what you have found is enough, make the next edit, complete a step, or give the answer.",
			plural(since, "tool call"), planStatus(s.plan)),
		Note:    fmt.Sprintf("%s since the last edit or completed plan step: fine for a read-only review; otherwise make the next edit, complete a step, or answer.", plural(since, "tool call")),
		Why:     fmt.Sprintf("%s with no edit and no plan step completed (nudge every %d)", plural(since, "tool call"), every),
		Figures: map[string]int{"calls": since, "stall_calls": every},
	}
}

// observePlan follows the plan: a newly completed step is progress, and
// each active step remembers the round it became active.
func (s *State) observePlan(p PlanView) {
	done := p.Count(StepCompleted)
	if done > s.planDone {
		s.progressAt = max(s.progressAt, s.toolCalls)
	}
	s.planDone = done
	active := make(map[string]int)
	for _, t := range p.titles(StepActive) {
		if since, ok := s.activeSince[t]; ok {
			active[t] = since
		} else {
			active[t] = s.round
		}
	}
	s.activeSince = active
	s.plan = p.clone()
}
