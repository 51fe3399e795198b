package discipline

import "fmt"

// stall nudges after StallCalls tool calls with no edit and no plan step
// completed, then again only after another StallCalls. It never halts and
// says a read-only task may carry on: audits are legitimate.
func stall(sum RoundSummary, p Policy, s *State) *Intervention {
	if p.StallCalls <= 0 || sum.EndedTurn {
		return nil
	}
	if s.toolCalls-max(s.progressAt, s.stallNudgedAt) < p.StallCalls {
		return nil
	}
	s.stallNudgedAt = s.toolCalls
	since := s.toolCalls - s.progressAt
	return &Intervention{
		Kind:       KindStall,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message: fmt.Sprintf("Progress check: %d tool calls since the last edit or completed plan step. %s If the task is a read-only review, carry on; otherwise, if what you have found is enough, make the next edit, complete a step, or give the answer.",
			since, planStatus(s.plan)),
		Note:    fmt.Sprintf("%d tool calls since the last edit or completed plan step: fine for a read-only review; otherwise make the next edit, complete a step, or answer.", since),
		Why:     fmt.Sprintf("%d tool calls with no edit and no plan step completed (nudge every %d)", since, p.StallCalls),
		Figures: map[string]int{"calls": since, "stall_calls": p.StallCalls},
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
