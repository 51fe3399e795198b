package agent

import (
	"fmt"
	"slices"
	"strings"
)

// The agent's state machine: the one table of allowed transitions. Every
// setState is checked against it; a transition it lacks is an internal
// error (logged, counted, recorded in the datalog) and still happens, so a
// gap in the table never strands a task. docs/ARCHITECTURE.md carries the
// diagram Mermaid() renders from this table (a test compares them).
//
// Mapping to seed 004: its states, and its one path idle → recognizing
// intent → (decomposing →) planning → executing → observing → reflecting →
// executing | replanning → planning | synthesizing → done, with halted and
// error. Where keel differs, and why:
//   - A request to the model is executing, as in 004 ("running a tool or
//     LLM call"), except the states that wait for the model's answer:
//     recognizing_intent (the task's first request decides: answer, act or
//     plan), reflecting (from a checkpoint to the answer), replanning (to
//     the new plan) and decomposing (to the sub-steps) last through it.
//   - Planning is optional: a task may go straight from recognizing_intent
//     to executing (a small edit) or synthesizing (a question answered).
//     004's task-level DECOMPOSING is the first plan's steps; keel's
//     decomposing splits one stalled step (seed 002).
//   - Reflection is periodic (every reflection_cadence calls, or /reflect),
//     not after every observation: observing goes to executing when no
//     checkpoint is due.
//   - Discipline may send a finished answer back to work (verify,
//     plan_continue): synthesizing → executing.
//   - cancelled is a state of its own (004 folds it into halted), and
//     keel has two waits, compacting and retrying, which return to the
//     state they interrupted.
var transitions = map[State][]State{
	StateIdle:         {StateRecognizing, StateCompacting},
	StateRecognizing:  {StateExecuting, StatePlanning, StateSynthesizing, StateObserving, StateCompacting, StateRetrying, StateHalted, StateError, StateCancelled},
	StateExecuting:    {StatePlanning, StateObserving, StateSynthesizing, StateCompacting, StateRetrying, StateHalted, StateError, StateCancelled},
	StatePlanning:     {StateExecuting, StateObserving, StateHalted, StateCancelled},
	StateObserving:    {StateExecuting, StateSynthesizing, StateReflecting, StateReplanning, StateDecomposing, StateCompacting, StateHalted, StateCancelled},
	StateReflecting:   {StateExecuting, StatePlanning, StateObserving, StateSynthesizing, StateCompacting, StateRetrying, StateHalted, StateError, StateCancelled},
	StateReplanning:   {StatePlanning, StateExecuting, StateObserving, StateSynthesizing, StateCompacting, StateRetrying, StateHalted, StateError, StateCancelled},
	StateDecomposing:  {StatePlanning, StateExecuting, StateObserving, StateSynthesizing, StateCompacting, StateRetrying, StateHalted, StateError, StateCancelled},
	StateSynthesizing: {StateDone, StateExecuting, StateReplanning, StateHalted, StateCancelled},
	StateCompacting:   {StateIdle, StateRecognizing, StateExecuting, StateObserving, StateReflecting, StateReplanning, StateDecomposing, StateHalted, StateError, StateCancelled},
	StateRetrying:     {StateRecognizing, StateExecuting, StateReflecting, StateReplanning, StateDecomposing, StateError, StateCancelled},
	StateDone:         {StateIdle, StateRecognizing, StateCompacting},
	StateHalted:       {StateIdle, StateRecognizing, StateCompacting},
	StateError:        {StateIdle, StateRecognizing, StateCompacting},
	StateCancelled:    {StateIdle, StateRecognizing, StateCompacting},
}

// States lists every state of the table, in the order the diagram and
// the docs show them.
func States() []State {
	return []State{StateIdle, StateRecognizing, StateDecomposing, StatePlanning, StateExecuting, StateObserving,
		StateReflecting, StateReplanning, StateSynthesizing, StateDone, StateHalted, StateError, StateCancelled,
		StateCompacting, StateRetrying}
}

// ValidTransition reports whether the table allows from → to. Staying in
// a state is not a transition and always allowed.
func ValidTransition(from, to State) bool {
	return from == to || slices.Contains(transitions[from], to)
}

// wait reports whether s is one of keel's waits, which return to the
// state they interrupted.
func (s State) wait() bool { return s == StateCompacting || s == StateRetrying }

// Terminal reports whether s ends a task.
func (s State) Terminal() bool {
	switch s {
	case StateDone, StateHalted, StateError, StateCancelled:
		return true
	}
	return false
}

// Mermaid renders the table as a Mermaid state diagram, every edge, for
// docs/ARCHITECTURE.md (TestArchitectureDiagramMatchesTable keeps the
// document's copy equal to it).
func Mermaid() string {
	var b strings.Builder
	b.WriteString("stateDiagram-v2\n    [*] --> idle\n")
	for _, from := range States() {
		for _, to := range transitions[from] {
			fmt.Fprintf(&b, "    %s --> %s\n", from, to)
		}
	}
	return b.String()
}

// InternalError is keel's own mistake, seen while a task ran (a state
// transition the table does not allow). It changes nothing for the task;
// it is shown, logged and counted so tests can assert none happens.
type InternalError struct{ What string }

func (InternalError) event() {}
