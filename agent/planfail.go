package agent

// markPlanFailed marks the session's plan failed when a task stops with
// plan_failed: its attempts were used up, or the model kept ending its
// turn with steps open. A plan already completed is left as it is.
func (s *Session) markPlanFailed() {
	snap := s.conv.markFailed(s.now())
	if snap == nil {
		return
	}
	s.opts.Recorder.plan(snap)
	s.out.send(PlanChanged{Plan: *snap})
}
