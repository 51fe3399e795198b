package discipline

// AfterRound applies every rule to one round and returns what fired and
// the state for the next round. It is pure: no clock, no I/O, and the
// given State is not modified. Pass the result to Decide for the one
// action to take (halt > ask > inject, one merged message per round).
//
// Within the round, calls are taken in order (call n of the task is
// sum.ToolCalls-len(sum.Calls)+i+1), so "edit, then test" and "test, then
// edit" differ; each call yields at most one finding (a halt, else the
// error streak, the reread note, the repeat warning). Then the plan is
// observed, and the round-level rules run: stall, then verify,
// plan_continue and monologue (these three only when the model ended its
// turn), and last the checkpoint (only when it did not), which carries the
// round's other findings in its text.
func AfterRound(sum RoundSummary, p Policy, s State) ([]Intervention, State) {
	s = s.clone()
	s.round++
	before := s.toolCalls
	s.toolCalls = max(s.toolCalls, sum.ToolCalls, before+len(sum.Calls))
	s.ctxUsed, s.ctxWindow = sum.ContextUsed, sum.ContextWindow
	if sum.Compacted {
		// Earlier reads and results left the context: reading them again
		// is not a reread, and calling again is not a loop.
		s.reads, s.repeats, s.recent = nil, nil, nil
	}
	var out []Intervention
	first := s.toolCalls - len(sum.Calls)
	for i, c := range sum.Calls {
		if in := s.observeCall(c, first+i+1, p); in != nil {
			out = append(out, *in)
		}
	}
	s.observePlan(sum.Plan)
	for _, rule := range []func(RoundSummary, Policy, *State) *Intervention{stall, verify, planContinue, monologue} {
		if in := rule(sum, p, &s); in != nil {
			out = append(out, *in)
		}
	}
	return foldIntoCheckpoint(sum, p, &s, out), s
}

// observeCall applies the per-call rules and returns the finding that
// says the most: a halt, else the error streak, the reread note, the
// repeat warning. Every rule still counts the call.
func (s *State) observeCall(c ToolCall, n int, p Policy) *Intervention {
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
	var reread *Intervention
	if !failed(c) {
		for _, r := range c.Reads {
			if in := s.observeRead(r, n, p); in != nil && reread == nil {
				reread = in
			}
		}
	}
	rep, streak, alt := s.observeRepeat(c, n, p), s.observeError(c, n, p), s.observeAlternation(c, n, p)
	s.observeVerify(c, p)
	found := []*Intervention{alt, rep, streak, reread}
	for _, in := range found {
		if in != nil && in.Action != Inject {
			return in
		}
	}
	for _, in := range []*Intervention{streak, reread, rep} {
		if in != nil {
			return in
		}
	}
	return nil
}
