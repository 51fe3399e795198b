package agent

import "github.com/keel-dev/keel/agent/llm"

// The task's moves through the state machine (statemachine.go), named by
// what the loop is doing; each checks the state it leaves.

// enterRequest is the state of a request about to leave: the states that
// wait for the model's answer (recognizing_intent, reflecting,
// replanning, decomposing) last through it; otherwise the loop is
// executing.
func (t *task) enterRequest() {
	switch t.s.currentState() {
	case StateRecognizing, StateReflecting, StateReplanning, StateDecomposing, StateExecuting:
	case StateSynthesizing:
		t.backToWork()
	default:
		t.s.setState(StateExecuting, "")
	}
}

// backToWork leaves synthesizing when the answer was sent back (cut at
// the output limit, a guard, a Stop hook): before the next request, and
// before a compaction that comes first.
func (t *task) backToWork() {
	if t.s.currentState() == StateSynthesizing {
		t.s.setState(StateExecuting, "sent back to work")
	}
}

// enterTools is the state the round's tools run in: a waiting state ends
// when its answer is not among the calls (no new plan, no sub-steps, no
// reflect call), else the tools run in it until update_plan or reflect
// settles it.
func (t *task) enterTools(calls []llm.ToolCall) {
	s := t.s
	switch st := s.currentState(); st {
	case StateReplanning, StateDecomposing:
		if !hasCall(calls, PlanToolName) {
			s.setState(StateExecuting, "no new plan")
		}
	case StateReflecting:
		if !hasCall(calls, ReflectToolName) {
			s.setState(StateExecuting, "checkpoint unanswered")
		}
	default:
		s.setState(StateExecuting, "")
	}
}

// backFromPlanning returns to executing after update_plan ran in a batch.
func (t *task) backFromPlanning() {
	if t.s.currentState() == StatePlanning {
		t.s.setState(StateExecuting, "")
	}
}

func callNames(calls []llm.ToolCall) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.Name
	}
	return out
}

func hasCall(calls []llm.ToolCall, name string) bool {
	for _, c := range calls {
		if c.Name == name {
			return true
		}
	}
	return false
}

// countCalls counts the calls to name.
func countCalls(calls []llm.ToolCall, name string) int {
	n := 0
	for _, c := range calls {
		if c.Name == name {
			n++
		}
	}
	return n
}

// workCalls is the task's tool calls as discipline counts them: answering
// a checkpoint (reflect) is not work towards the next one, nor a call the
// guards judge.
func (t *task) workCalls() int { return t.limits.toolCalls - t.limits.reflectCalls }
