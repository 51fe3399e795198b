package discipline

import (
	"fmt"
	"strings"
)

// reflectionPrompt is the checkpoint message, action-biased: facts of the
// last calls and the plan, the round's other findings (one line each),
// then three questions: restate the task; what the calls proved or ruled
// out; the next concrete output and its distance. It ends by asking the
// model to act now when it knows enough, because "what next?" alone
// invites more reading.
func reflectionPrompt(delta int, act Activity, plan PlanView, rep ReflectionReport, notes []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Checkpoint: a routine pause every few tool calls; nothing is wrong.]\n")
	fmt.Fprintf(&b, "In the last %s: %s.\n", plural(delta, "tool call"), act.facts())
	fmt.Fprintf(&b, "%s\n", planStatus(plan))
	for _, l := range rep.Lines() {
		fmt.Fprintf(&b, "%s\n", l)
	}
	b.WriteString(notesBlock(notes))
	fmt.Fprintf(&b, "Answer briefly, in this order:\n")
	fmt.Fprintf(&b, "1. Restate the original task in one sentence.\n")
	fmt.Fprintf(&b, "2. What did the last %s prove or rule out?\n", plural(delta, "call"))
	fmt.Fprintf(&b, "3. What is the next concrete output (an edit, a command's result, or an answer), and how many calls away is it?\n")
	fmt.Fprintf(&b, "If what you know is enough to act, act in this turn: make the edit, run the check or give the answer now, rather than gathering more.")
	return b.String()
}

// maxListed bounds the step titles a status line names.
const maxListed = 5

// planStatus renders the plan in one line, or says there is none.
func planStatus(p PlanView) string {
	if len(p.Steps) == 0 {
		return "Plan: none recorded."
	}
	s := fmt.Sprintf("Plan: %d of %s completed", p.Count(StepCompleted), plural(len(p.Steps), "step"))
	if a := p.titles(StepActive); len(a) > 0 {
		s += "; active: " + quoteList(a, maxListed)
	}
	if q := p.titles(StepPending); len(q) > 0 {
		s += "; pending: " + quoteList(q, maxListed)
	}
	if f := p.titles(StepFailed); len(f) > 0 {
		s += "; failed: " + quoteList(f, maxListed)
	}
	return s + "."
}

// quoteList renders titles quoted and comma-separated, at most max.
func quoteList(titles []string, max int) string {
	q := make([]string, 0, min(len(titles), max))
	for i, t := range titles {
		if i == max {
			break
		}
		q = append(q, fmt.Sprintf("%q", t))
	}
	s := strings.Join(q, ", ")
	if len(titles) > max {
		s += fmt.Sprintf(" and %d more", len(titles)-max)
	}
	return s
}
