package discipline

import "maps"

// State is what discipline carries between rounds. Its zero value is ready
// for a new session. AfterRound never modifies the State it is given; it
// returns a new one, so old values stay valid.
//
// The fields are what the checkpoint, the report and several guards
// share; each guard keeps the rest in its own part (see stateOf).
type State struct {
	round       int // rounds seen in the session
	task        int // tasks started in the session (NewTask)
	toolCalls   int // the task's tool-call count
	reflectedAt int // tool count at the last checkpoint
	window      Activity

	progressAt int // tool count at the last edit or completed step

	plan             PlanView
	planDone         int            // completed steps in the last plan seen
	doneAtCheckpoint []string       // completed titles at the last checkpoint
	activeSince      map[string]int // active step title -> round it became active

	tools              map[string]ToolRate
	ctxUsed, ctxWindow int

	own map[string]guardState // each guard's own state, by guard name
}

// guardState is a guard's own part of State. clone returns a copy that
// AfterRound may change without touching the State it was given.
type guardState interface{ clone() guardState }

// stateOf returns guard name's own state in s, made on first use. Call it
// only on the State AfterRound is building.
func stateOf[T any, P interface {
	*T
	guardState
}](s *State, name string) P {
	if v, ok := s.own[name].(P); ok {
		return v
	}
	v := P(new(T))
	if s.own == nil {
		s.own = map[string]guardState{}
	}
	s.own[name] = v
	return v
}

// peekState returns guard name's own state, or nil; it never writes s.
func peekState[P guardState](s State, name string) P {
	v, _ := s.own[name].(P)
	return v
}

// NewTask returns the state for a new user task: the tool count, the
// checkpoint marker and every per-task counter reset. The round counter
// and the state of guards that keep it across tasks (the reads: they are
// still in the conversation the model sees) carry over.
func NewTask(s State) State {
	next := State{round: s.round, task: s.task + 1}
	for _, g := range registered().guards {
		if v, ok := s.own[g.Name]; ok && g.KeepAcrossTasks {
			if next.own == nil {
				next.own = map[string]guardState{}
			}
			next.own[g.Name] = v.clone()
		}
	}
	return next
}

// ToolCalls returns the task's tool-call count.
func (s State) ToolCalls() int { return s.toolCalls }

// LastReflectionAt returns the tool count at the task's last checkpoint.
func (s State) LastReflectionAt() int { return s.reflectedAt }

// Rounds returns how many rounds the session has summarised.
func (s State) Rounds() int { return s.round }

// clone copies the maps so AfterRound can update without touching the
// caller's State. Slices are never written in place (see appendCopy), so
// sharing them is safe.
func (s State) clone() State {
	s.activeSince = maps.Clone(s.activeSince)
	s.tools = maps.Clone(s.tools)
	if s.own != nil {
		own := make(map[string]guardState, len(s.own))
		for k, v := range s.own {
			own[k] = v.clone()
		}
		s.own = own
	}
	return s
}

// appendCopy appends to a fresh backing array, so a slice shared with an
// older State is never written through.
func appendCopy[T any](s []T, v ...T) []T {
	return append(s[:len(s):len(s)], v...)
}
