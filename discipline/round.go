package discipline

// AfterRound applies every rule to one round and returns what fired and
// the state for the next round. It is pure: no clock, no I/O, and the
// given State is not modified. Pass the result to Decide for the one
// action to take (halt > ask > inject, one merged message per round).
//
// Within the round, calls are taken in order (call n of the task is
// sum.ToolCalls-len(sum.Calls)+i+1), so "edit, then test" and "test, then
// edit" differ; each call yields at most one finding (a halt, else the
// first in the registry's order: the error streak, the reread note, the
// repeat warning). Then the plan is observed, and the round-level rules
// run in the registry's order: stall, then verify, plan_continue and
// monologue (these three only when the model ended its turn), and last the
// checkpoint (only when it did not), which carries the round's other
// findings in its text.
func AfterRound(sum RoundSummary, p Policy, s State) ([]Intervention, State) {
	guards := registered().guards
	s = s.clone()
	s.round++
	before := s.toolCalls
	s.toolCalls = max(s.toolCalls, sum.ToolCalls, before+len(sum.Calls))
	s.ctxUsed, s.ctxWindow = sum.ContextUsed, sum.ContextWindow
	if sum.Compacted {
		// Earlier reads and results left the context: reading them again
		// is not a reread, and calling again is not a loop.
		for _, g := range guards {
			if g.Forget != nil {
				g.Forget(&s)
			}
		}
	}
	if sum.WorldChanged {
		// Something outside keel changed files: an identical call or
		// failure from now on is new evidence, as after an edit.
		for _, g := range guards {
			if g.WorldChanged != nil {
				g.WorldChanged(&s)
			}
		}
	}
	var out []Intervention
	first := s.toolCalls - len(sum.Calls)
	for i, c := range sum.Calls {
		if in := s.observeCall(guards, c, first+i+1, &p); in != nil {
			out = append(out, *in)
		}
	}
	s.observePlan(sum.Plan)
	for _, g := range guards {
		if g.Round == nil {
			continue
		}
		if in := g.Round(sum, &p, &s); in != nil {
			out = append(out, *in)
		}
	}
	return foldIntoCheckpoint(sum, p, &s, out), s
}

// observeCall counts the call and applies every guard's call rule; it
// returns the finding that says the most: a halt (or question), else the
// first guard's in the registry. Every guard still counts the call.
func (s *State) observeCall(guards []*Guard, c ToolCall, n int, p *Policy) *Intervention {
	s.countTool(c)
	s.window = s.window.add(c)
	if len(c.Changed) > 0 {
		s.progressAt = max(s.progressAt, n)
	}
	var best *Intervention
	for _, g := range guards {
		if g.Call == nil {
			continue
		}
		in := g.Call(s, c, n, p)
		if in != nil && (best == nil || (best.Action == Inject && in.Action != Inject)) {
			best = in
		}
	}
	return best
}
