package discipline

import (
	"fmt"
	"strings"
)

// KindPlanContinue is the plan guard's reminder (and its plan_failed stop).
const KindPlanContinue Kind = "plan_continue"

var (
	planContinueOn  = boolSetting("plan_continue", true, "remind the model when it ends its turn with plan steps open")
	planContinueMax = intSetting("plan_continue_max", 3, "reminders without progress before stopping with plan_failed; 0 = never stop")
)

var planContinueGuard = &Guard{
	Name: "plan_continue", Kind: KindPlanContinue, Rank: 5,
	Settings: []*Setting{planContinueOn, planContinueMax},
	Round:    planContinue,
}

// planReminders is what the plan guard remembers between turn ends.
type planReminders struct {
	sig    string // the open plan last reminded about
	count  int    // reminders without progress
	closed int    // steps closed at the last check
}

func (r *planReminders) clone() guardState { c := *r; return &c }

// planContinue sends a model that ends its turn with open plan steps back
// to them. With PlanContinueMax set, it reminds at every such turn end, up
// to PlanContinueMax reminders without plan progress (a step completed,
// skipped or failed resets the count); the next turn end with steps open
// stops the task with plan_failed (asks the user when one is there), so a
// run never ends "completed" with its plan open. With PlanContinueMax 0 it
// reminds once per unchanged plan and never stops.
func planContinue(sum RoundSummary, p *Policy, s *State) *Intervention {
	if !p.on(planContinueOn) || !sum.EndedTurn {
		return nil
	}
	open := sum.Plan.Open()
	if len(open) == 0 {
		return nil
	}
	r := stateOf[planReminders](s, "plan_continue")
	most := p.num(planContinueMax)
	closed := len(sum.Plan.Steps) - len(open)
	if closed > r.closed {
		r.count = 0 // progress since the last reminder
	}
	r.closed = closed
	if most > 0 && r.count >= most {
		r.count = 0 // if the user lets the task go on, count again
		return planStop(sum.Plan, open, most, p, s)
	}
	sig := planSignature(sum.Plan)
	if most <= 0 && sig == r.sig {
		return nil
	}
	r.sig = sig
	r.count++
	status := strings.TrimSuffix(strings.TrimPrefix(planStatus(sum.Plan), "Plan: "), ".")
	return &Intervention{
		Kind:       KindPlanContinue,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message: fmt.Sprintf("Your plan still has open steps (%s). Continue with the next one, or update the plan (mark steps completed, skipped or failed) if it no longer fits.",
			status),
		Note: fmt.Sprintf("your plan still has %s: continue with the next one, or update the plan.", plural(len(open), "open step")),
		Why:  fmt.Sprintf("turn ended with %d of %s open (reminder %d)", len(open), plural(len(sum.Plan.Steps), "plan step"), r.count),
		Figures: map[string]int{
			"open": len(open), "steps": len(sum.Plan.Steps), "completed": sum.Plan.Count(StepCompleted),
			"reminder": r.count,
		},
	}
}

// planStop ends a task whose model keeps stopping with steps open. Its
// Message is sent only if the user, asked, lets the task go on.
func planStop(plan PlanView, open []PlanStep, most int, p *Policy, s *State) *Intervention {
	titles := make([]string, len(open))
	for i, st := range open {
		titles[i] = st.Title
	}
	action := Ask
	if p.Headless {
		action = Halt
	}
	why := fmt.Sprintf("the model ended its turn %s with plan steps open; %d of %s still open: %s",
		plural(most+1, "time"), len(open), plural(len(plan.Steps), "step"), quoteList(titles, maxListed))
	return &Intervention{
		Kind: KindPlanContinue, AtToolCall: s.toolCalls, Action: action, StopReason: StopPlanFailed,
		Why: why,
		Message: fmt.Sprintf("You ended your turn %s with plan steps open (%s). The user let the task go on: continue with the next step, or update the plan (mark steps completed, skipped or failed).",
			plural(most+1, "time"), quoteList(titles, maxListed)),
		Figures: map[string]int{"open": len(open), "steps": len(plan.Steps), "reminders": most},
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
