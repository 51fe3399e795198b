package discipline

import "maps"

// State is what discipline carries between rounds. Its zero value is ready
// for a new session. AfterRound never modifies the State it is given; it
// returns a new one, so old values stay valid.
type State struct {
	round       int // rounds seen in the session
	toolCalls   int // the task's tool-call count
	reflectedAt int // tool count at the last checkpoint
	window      Activity

	reads    map[readKey]coverage // per path and version; survives tasks
	repeats  map[string]int       // identical-call counts since files changed
	streaks  map[string]streak    // per tool: the current failure streak
	recent   []string             // the last calls' keys, for alternation
	prevCall ToolCall             // the call before the current one
	mono     monoRun              // identical turn-ending answers in a row

	progressAt    int // tool count at the last edit or completed step
	stallNudgedAt int // tool count at the last stall nudge

	unverified     []string // paths changed since the last passing check
	verifyNotified bool     // the current batch has had its reminder

	plan             PlanView
	planDone         int            // completed steps in the last plan seen
	doneAtCheckpoint []string       // completed titles at the last checkpoint
	activeSince      map[string]int // active step title -> round it became active
	planSig          string         // the open plan last reminded about
	planReminders    int            // plan_continue reminders without progress
	planClosed       int            // steps closed at the last plan_continue check

	tools              map[string]ToolRate
	ctxUsed, ctxWindow int
}

// NewTask returns the state for a new user task: the tool count, the
// checkpoint marker and every per-task counter reset. Read regions and
// the round counter carry over, because earlier reads are still in the
// conversation the model sees.
func NewTask(s State) State {
	return State{round: s.round, reads: maps.Clone(s.reads)}
}

// ToolCalls returns the task's tool-call count.
func (s State) ToolCalls() int { return s.toolCalls }

// LastReflectionAt returns the tool count at the task's last checkpoint.
func (s State) LastReflectionAt() int { return s.reflectedAt }

// Rounds returns how many rounds the session has summarised.
func (s State) Rounds() int { return s.round }

// Unverified lists the files changed since the last passing check.
func (s State) Unverified() []string { return append([]string(nil), s.unverified...) }

// clone copies the maps so AfterRound can update without touching the
// caller's State. Slices are never written in place (see appendCopy), so
// sharing them is safe.
func (s State) clone() State {
	s.reads = maps.Clone(s.reads)
	s.repeats = maps.Clone(s.repeats)
	s.streaks = maps.Clone(s.streaks)
	s.activeSince = maps.Clone(s.activeSince)
	s.tools = maps.Clone(s.tools)
	return s
}

// appendCopy appends to a fresh backing array, so a slice shared with an
// older State is never written through.
func appendCopy[T any](s []T, v ...T) []T {
	return append(s[:len(s):len(s)], v...)
}
