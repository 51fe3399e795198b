package discipline

import (
	"fmt"
	"strings"
)

// planContinue sends a model that ends its turn with open plan steps back
// to them, once per unchanged plan, so a model that has a reason to stop
// (and says so) is not nagged.
func planContinue(sum RoundSummary, p Policy, s *State) *Intervention {
	if !p.PlanContinue || !sum.EndedTurn {
		return nil
	}
	open := sum.Plan.Open()
	if len(open) == 0 {
		return nil
	}
	sig := planSignature(sum.Plan)
	if sig == s.planSig {
		return nil
	}
	s.planSig = sig
	return &Intervention{
		Kind:       KindPlanContinue,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message: fmt.Sprintf("Your plan still has open steps (%s). Continue with the next one, or update the plan (mark steps completed, skipped or failed) if it no longer fits.",
			strings.TrimSuffix(strings.TrimPrefix(planStatus(sum.Plan), "Plan: "), ".")),
		Why: fmt.Sprintf("turn ended with %d of %d plan steps open", len(open), len(sum.Plan.Steps)),
		Figures: map[string]int{
			"open": len(open), "steps": len(sum.Plan.Steps), "completed": sum.Plan.Count(StepCompleted),
		},
	}
}

// planSignature identifies a plan's content, so an unchanged plan is not
// reminded about twice.
func planSignature(p PlanView) string {
	var b strings.Builder
	b.WriteString(p.Goal)
	for _, s := range p.Steps {
		b.WriteString("\x00" + s.Title + "\x01" + s.Status)
	}
	return b.String()
}
