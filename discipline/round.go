package discipline

// AfterRound applies every rule to one round and returns what fired and
// the state for the next round. It is pure: no clock, no I/O, and the
// given State is not modified. Pass the result to Decide for the one
// action to take (halt > ask > inject, one merged message per round).
//
// Within the round, calls are taken in order (call n of the task is
// sum.ToolCalls-len(sum.Calls)+i+1), so "edit, then test" and "test, then
// edit" differ. Then the plan is observed, and the round-level rules run:
// stall, verify and plan_continue (the last two only when the model ended
// its turn), and the checkpoint (only when it did not).
func AfterRound(sum RoundSummary, p Policy, s State) ([]Intervention, State) {
	s = s.clone()
	s.round++
	before := s.toolCalls
	s.toolCalls = max(s.toolCalls, sum.ToolCalls, before+len(sum.Calls))
	s.ctxUsed, s.ctxWindow = sum.ContextUsed, sum.ContextWindow
	if sum.Compacted {
		// Earlier reads and results left the context: reading them again
		// is not a reread, and calling again is not a loop.
		s.reads, s.repeats = nil, nil
	}
	var out []Intervention
	first := s.toolCalls - len(sum.Calls)
	for i, c := range sum.Calls {
		out = s.observeCall(c, first+i+1, p, out)
	}
	s.observePlan(sum.Plan)
	for _, rule := range []func(RoundSummary, Policy, *State) *Intervention{stall, verify, planContinue, checkpoint} {
		if in := rule(sum, p, &s); in != nil {
			out = append(out, *in)
		}
	}
	return out, s
}

// observeCall applies the per-call rules and appends what fired to out.
func (s *State) observeCall(c ToolCall, n int, p Policy, out []Intervention) []Intervention {
	s.countTool(c)
	s.window = s.window.add(c)
	if len(c.Changed) > 0 {
		// The world changed: old reads of these files are stale, and an
		// identical call or failure from now on is new evidence.
		for _, path := range c.Changed {
			s.forgetPath(path)
		}
		s.repeats, s.streaks = nil, nil
		s.progressAt = max(s.progressAt, n)
	}
	if !failed(c) {
		for _, r := range c.Reads {
			if in := s.observeRead(r, n, p); in != nil {
				out = append(out, *in)
			}
		}
	}
	rep, streak := s.observeRepeat(c, n, p), s.observeError(c, n, p)
	if rep != nil && streak != nil && rep.Action == Inject {
		rep = nil // the same failing call: the streak note says more
	}
	for _, in := range []*Intervention{rep, streak} {
		if in != nil {
			out = append(out, *in)
		}
	}
	s.observeVerify(c, p)
	return out
}
