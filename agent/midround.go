package agent

import "github.com/keel-dev/keel/discipline"

// midRoundHalt runs discipline over the calls of a round so far, on a
// copy of its state, and returns why a guard would stop the task ("" to
// go on). A round of many calls then stops where the guard fires instead
// of running the rest (a model that asks for 200 identical calls at
// once). Only what the round will report anyway is consulted: the
// decision itself is taken after the round, by observe.
func (t *task) midRoundHalt(done []outcome) string {
	s := t.s
	pol := s.live.policy()
	sum := discipline.RoundSummary{Plan: planView(s.Plan()), ToolCalls: t.workCalls() + len(done),
		ContextUsed: t.compaction.lastPrompt, ContextWindow: s.opts.ContextWindow}
	for _, o := range done {
		if o.skip == "" && o.call.Name != ReflectToolName {
			sum.Calls = append(sum.Calls, callSummary(o))
		}
	}
	ins, _ := discipline.AfterRound(sum, pol, t.discipline) // AfterRound works on a clone
	d := discipline.Decide(ins)
	switch {
	case d.Halt != nil:
		return d.Halt.Why
	case d.Ask != nil:
		return d.Ask.Why
	}
	return ""
}

// skipRest marks the calls after a guard fired as not run.
func skipRest(rest []outcome, why string) {
	for i := range rest {
		if rest[i].skip == "" {
			rest[i].skip = "keel stopped this round before this call: " + why
		}
	}
}
