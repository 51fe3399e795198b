package discipline

import (
	"fmt"
	"strings"
)

// NextCheckpointAt returns the tool-call count of the next scheduled
// checkpoint: the first multiple of cadence after the last one, or 0 when
// cadence is 0. Checkpoints are scheduled at 10, 20, 30… for cadence 10,
// wherever a round with parallel calls made the previous one land.
func NextCheckpointAt(lastReflectionAt, cadence int) int {
	if cadence <= 0 {
		return 0
	}
	return (max(lastReflectionAt, 0)/cadence + 1) * cadence
}

// ShouldReflect reports whether a checkpoint is due: never when cadence is
// 0; otherwise when toolCalls has reached NextCheckpointAt. delta is the
// number of calls since the marker (0 when the marker is ahead); a round
// with several calls may cross the multiple, so delta can exceed cadence.
func ShouldReflect(toolCalls, lastReflectionAt, cadence int) (delta int, ok bool) {
	if cadence <= 0 {
		return 0, false
	}
	delta = max(toolCalls-lastReflectionAt, 0)
	return delta, toolCalls >= NextCheckpointAt(lastReflectionAt, cadence)
}

// checkpoint fires the scheduled checkpoint after the round that crosses a
// multiple of the cadence, and moves the marker to that multiple. It skips
// a round where the model ended its turn: a checkpoint must not send a
// finished model back to work. notes are the round's other findings, one
// line each, carried in the checkpoint so the pause has one message.
func checkpoint(sum RoundSummary, p Policy, s *State, notes []string) *Intervention {
	if sum.EndedTurn {
		return nil
	}
	if _, ok := ShouldReflect(s.toolCalls, s.reflectedAt, p.ReflectionCadence); !ok {
		return nil
	}
	delta := s.window.Calls // the calls since the last checkpoint, which the facts cover
	rep := Report(*s, p)
	in := &Intervention{
		Kind:       KindReflection,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message:    reflectionPrompt(delta, s.window, s.plan, rep, notes),
		Why: fmt.Sprintf("checkpoint after %s (cadence %d): %s, %s, %d failed",
			plural(delta, "tool call"), p.ReflectionCadence, plural(s.window.Reads, "read"), plural(s.window.Edits, "edit"), s.window.Failed),
		Figures: map[string]int{
			"delta": delta, "cadence": p.ReflectionCadence, "reads": s.window.Reads,
			"edits": s.window.Edits, "commands": s.window.Commands, "failed": s.window.Failed,
		},
	}
	s.reflectedAt = s.toolCalls / p.ReflectionCadence * p.ReflectionCadence
	s.window = Activity{}
	s.doneAtCheckpoint = s.plan.titles(StepCompleted)
	return in
}

// foldIntoCheckpoint gives the round one message: when a checkpoint is
// due, the other inject findings become lines of it (marked Folded; their
// cards and datalog rows stay), and a stall nudge is dropped, its fact
// stated in the checkpoint. Without a checkpoint nothing changes.
func foldIntoCheckpoint(sum RoundSummary, p Policy, s *State, found []Intervention) []Intervention {
	var notes []string
	stallAt := -1
	for i, in := range found {
		if in.Action != Inject {
			continue
		}
		if in.Kind == KindStall {
			stallAt = i
		}
		notes = append(notes, in.note())
	}
	cp := checkpoint(sum, p, s, notes)
	if cp == nil {
		return found
	}
	out := make([]Intervention, 0, len(found)+1)
	for i, in := range found {
		if i == stallAt {
			cp.Figures["since_progress"] = in.Figures["calls"]
			continue
		}
		if in.Action == Inject {
			in.Folded = true
		}
		out = append(out, in)
	}
	return append(out, *cp)
}

// notesBlock renders findings carried in a checkpoint.
func notesBlock(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	return "Also this round:\n- " + strings.Join(notes, "\n- ") + "\n"
}
