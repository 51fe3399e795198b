package discipline

import (
	"fmt"
	"strings"
)

// planContinue sends a model that ends its turn with open plan steps back
// to them. With PlanContinueMax set, it reminds at every such turn end, up
// to PlanContinueMax reminders without plan progress (a step completed,
// skipped or failed resets the count); the next turn end with steps open
// stops the task with plan_failed (asks the user when one is there), so a
// run never ends "completed" with its plan open. With PlanContinueMax 0 it
// reminds once per unchanged plan and never stops.
func planContinue(sum RoundSummary, p Policy, s *State) *Intervention {
	if !p.PlanContinue || !sum.EndedTurn {
		return nil
	}
	open := sum.Plan.Open()
	if len(open) == 0 {
		return nil
	}
	closed := len(sum.Plan.Steps) - len(open)
	if closed > s.planClosed {
		s.planReminders = 0 // progress since the last reminder
	}
	s.planClosed = closed
	if p.PlanContinueMax > 0 && s.planReminders >= p.PlanContinueMax {
		s.planReminders = 0 // if the user lets the task go on, count again
		return planStop(sum.Plan, open, p, s)
	}
	sig := planSignature(sum.Plan)
	if p.PlanContinueMax <= 0 && sig == s.planSig {
		return nil
	}
	s.planSig = sig
	s.planReminders++
	status := strings.TrimSuffix(strings.TrimPrefix(planStatus(sum.Plan), "Plan: "), ".")
	return &Intervention{
		Kind:       KindPlanContinue,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message: fmt.Sprintf("Your plan still has open steps (%s). Continue with the next one, or update the plan (mark steps completed, skipped or failed) if it no longer fits.",
			status),
		Note: fmt.Sprintf("your plan still has %d open steps: continue with the next one, or update the plan.", len(open)),
		Why:  fmt.Sprintf("turn ended with %d of %d plan steps open (reminder %d)", len(open), len(sum.Plan.Steps), s.planReminders),
		Figures: map[string]int{
			"open": len(open), "steps": len(sum.Plan.Steps), "completed": sum.Plan.Count(StepCompleted),
			"reminder": s.planReminders,
		},
	}
}

// planStop ends a task whose model keeps stopping with steps open. Its
// Message is sent only if the user, asked, lets the task go on.
func planStop(plan PlanView, open []PlanStep, p Policy, s *State) *Intervention {
	titles := make([]string, len(open))
	for i, st := range open {
		titles[i] = st.Title
	}
	action := Ask
	if p.Headless {
		action = Halt
	}
	why := fmt.Sprintf("the model ended its turn %d times with plan steps open; %d of %d still open: %s",
		p.PlanContinueMax+1, len(open), len(plan.Steps), quoteList(titles, maxListed))
	return &Intervention{
		Kind: KindPlanContinue, AtToolCall: s.toolCalls, Action: action, StopReason: StopPlanFailed,
		Why: why,
		Message: fmt.Sprintf("You ended your turn %d times with plan steps open (%s). The user let the task go on: continue with the next step, or update the plan (mark steps completed, skipped or failed).",
			p.PlanContinueMax+1, quoteList(titles, maxListed)),
		Figures: map[string]int{"open": len(open), "steps": len(plan.Steps), "reminders": p.PlanContinueMax},
	}
}

// planSignature identifies a plan's content, so an unchanged plan is not
// reminded about twice when reminders are not limited.
func planSignature(p PlanView) string {
	var b strings.Builder
	b.WriteString(p.Goal)
	for _, s := range p.Steps {
		b.WriteString("\x00" + s.Title + "\x01" + s.Status)
	}
	return b.String()
}
