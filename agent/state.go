package agent

// State is where the agent is in a task. Every transition is checked
// against the one table in statemachine.go, emitted as an event and
// written to the datalog.
type State string

// The agent's states: seed 004's, named as keel writes them, plus
// cancelled and keel's two waits (compacting, retrying). statemachine.go
// says what each means in keel and which may follow which.
const (
	StateIdle         State = "idle"
	StateRecognizing  State = "recognizing_intent" // the task's first request: answer, act or plan
	StateDecomposing  State = "decomposing"        // keel asked for a step's sub-steps, until they come
	StatePlanning     State = "planning"           // update_plan is recording a plan
	StateExecuting    State = "executing"          // a model request or tool calls
	StateObserving    State = "observing"          // post-round discipline over the round's results
	StateReflecting   State = "reflecting"         // from a checkpoint to the model's answer
	StateReplanning   State = "replanning"         // a plan failed; until the new plan
	StateSynthesizing State = "synthesizing"       // the model answered without tool calls
	StateDone         State = "done"
	StateHalted       State = "halted" // a limit, a guard, a refusal or the model's own stop
	StateError        State = "error"  // the provider (or keel) failed
	StateCancelled    State = "cancelled"
	StateCompacting   State = "compacting" // summarising older rounds
	StateRetrying     State = "retrying"   // waiting after a provider fault
)

// Deprecated names kept for the UI's tests while it moves; they are not
// states of the table and the agent never enters them.
const (
	StateThinking State = "thinking"
	StateActing   State = "acting"
	StateFailed         = StateError
)

// StopReason says why a task ended.
type StopReason string

// Stop reasons, as in docs/ARCHITECTURE.md.
const (
	StopCompleted       StopReason = "completed"
	StopMaxTurns        StopReason = "max_turns"
	StopMaxToolCalls    StopReason = "max_tool_calls"
	StopMaxDuration     StopReason = "max_duration"
	StopTokenBudget     StopReason = "token_budget"
	StopLoopDetected    StopReason = "loop_detected"
	StopPlanFailed      StopReason = "plan_failed"
	StopPlanUnconfirmed StopReason = "plan_unconfirmed" // --confirm-plan with nobody to confirm a plan with side effects
	StopNeedsUser       StopReason = "needs_user"       // the model's reflection asked the user, and nobody is there
	StopModelStopped    StopReason = "model_stopped"    // the model's reflection chose to stop; its summary is the result
	StopCancelled       StopReason = "cancelled"
	StopProviderError   StopReason = "provider_error"
	StopContextOverflow StopReason = "context_overflow"
	StopHookBlocked     StopReason = "hook_blocked" // a UserPromptSubmit hook blocked the prompt (or said not to continue)
	// StopDatalog: the datalog could not record a change keel was about to
	// make (so undo could not restore it), or the task's records, and
	// nobody could say to go on.
	StopDatalog StopReason = "datalog_unavailable"
)

// Halted reports whether the reason is a limit, a guard or a stop short
// of the goal (exit status 3).
func (r StopReason) Halted() bool {
	switch r {
	case StopMaxTurns, StopMaxToolCalls, StopMaxDuration, StopTokenBudget, StopLoopDetected, StopPlanFailed,
		StopContextOverflow, StopPlanUnconfirmed, StopNeedsUser, StopModelStopped, StopHookBlocked:
		return true
	}
	return false
}

// finalState is the state a task ends in for a stop reason.
func (r StopReason) finalState() State {
	switch r {
	case StopCompleted:
		return StateDone
	case StopProviderError:
		return StateError
	case StopCancelled:
		return StateCancelled
	default: // StopDatalog too: a safety stop, not the provider's error

		return StateHalted
	}
}
