package agent

// markPlanFailed marks the session's plan failed when a task stops with
// plan_failed: its attempts were used up, or the model kept ending its
// turn with steps open. A plan already completed is left as it is.
func (s *Session) markPlanFailed() {
	s.mu.Lock()
	if s.plan == nil || s.plan.Status == PlanCompleted || s.plan.Status == PlanFailed {
		s.mu.Unlock()
		return
	}
	next := s.plan.clone()
	next.Status, next.Updated = PlanFailed, s.now()
	s.plan = next
	snap := next.clone()
	s.mu.Unlock()
	s.opts.Recorder.plan(snap)
	s.out.send(PlanChanged{Plan: *snap})
}
