package agent

// State is where the agent is in a task. Every transition is emitted as an
// event and written to the datalog.
type State string

// The agent's states.
const (
	StateIdle       State = "idle"
	StateThinking   State = "thinking"   // streaming a response
	StateActing     State = "acting"     // running tools
	StateObserving  State = "observing"  // applying post-round discipline
	StateReflecting State = "reflecting" // a checkpoint was injected
	StatePlanning   State = "planning"   // the model is updating its plan
	StateReplanning State = "replanning" // a plan failed and is being redone
	StateCompacting State = "compacting" // summarising older rounds
	StateRetrying   State = "retrying"   // waiting after a provider fault
	StateDone       State = "done"
	StateHalted     State = "halted"
	StateFailed     State = "failed"
)

// StopReason says why a task ended.
type StopReason string

// Stop reasons, as in docs/ARCHITECTURE.md.
const (
	StopCompleted       StopReason = "completed"
	StopMaxTurns        StopReason = "max_turns"
	StopMaxToolCalls    StopReason = "max_tool_calls"
	StopTokenBudget     StopReason = "token_budget"
	StopLoopDetected    StopReason = "loop_detected"
	StopPlanFailed      StopReason = "plan_failed"
	StopCancelled       StopReason = "cancelled"
	StopProviderError   StopReason = "provider_error"
	StopContextOverflow StopReason = "context_overflow"
)

// Halted reports whether the reason is a limit or a guard (exit status 3).
func (r StopReason) Halted() bool {
	switch r {
	case StopMaxTurns, StopMaxToolCalls, StopTokenBudget, StopLoopDetected, StopPlanFailed, StopContextOverflow:
		return true
	}
	return false
}

// finalState is the state a task ends in for a stop reason.
func (r StopReason) finalState() State {
	switch {
	case r == StopCompleted:
		return StateDone
	case r == StopProviderError:
		return StateFailed
	default:
		return StateHalted
	}
}
