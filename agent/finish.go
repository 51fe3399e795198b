package agent

// finishTask gives every dangling tool call a result, records the end of
// the task, and emits TaskStopped as the task's last event.
func (s *Session) finishTask(t *task, st stop) {
	s.closeDanglingCalls()
	if st.reason != StopCancelled && st.reason != StopDatalog {
		if lost := s.opts.Recorder.unsaved(); lost != "" { // a task never ends "completed" with rounds lost
			st = stop{reason: StopDatalog, message: lost + "; the task itself " + stopWords(st)}
		}
	}
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
	if st.reason != StopCancelled && st.reason != StopDatalog {
		if lost := s.opts.Recorder.unsaved(); lost != "" { // the task's end itself was not saved
			st = stop{reason: StopDatalog, message: lost + "; the task itself " + stopWords(st)}
		}
	}
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

// stopWords is how a task ended, for a datalog stop's message: "completed"
// or "stopped: <message>".
func stopWords(st stop) string {
	if st.reason == StopCompleted {
		return "completed"
	}
	return "stopped (" + string(st.reason) + "): " + st.message
}
