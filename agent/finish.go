package agent

// finishTask gives every dangling tool call a result, records the end of
// the task, and emits TaskStopped as the task's last event.
func (s *Session) finishTask(t *task, st stop) {
	s.closeDanglingCalls()
	s.setState(st.reason.finalState(), string(st.reason))
	s.mu.Lock()
	s.taskDiscipline = t.discipline // read regions carry over to the next task
	s.running = false
	s.cancel = nil
	cost := s.costPtr()
	plan := s.conv.Plan()
	s.mu.Unlock()
	sum := TaskSummary{
		Turns: t.limits.rounds, ToolCalls: t.limits.toolCalls, Usage: t.limits.usage, CostUSD: cost,
		Duration: s.now().Sub(t.started), APIDuration: t.limits.apiTime, Interventions: t.Interventions, Denials: t.Denials, Plan: plan,
	}
	s.opts.Recorder.taskEnded(s, st, sum)
	s.out.send(TaskStopped{Reason: st.reason, Message: st.message, Result: t.result, Err: st.err, Summary: sum})
}

// closeDanglingCalls appends a "cancelled" result for any tool call in the
// last assistant message that has none, so the next request is valid.
func (s *Session) closeDanglingCalls() {
	s.conv.closeDangling("cancelled: keel stopped before this tool call ran")
}

// retryDetail is the state line shown while waiting to retry, e.g.
// "rate limited by openai, retrying in 12 s".
func retryDetail(r Retrying) string { return r.Err }
