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
		Why: fmt.Sprintf("%s: %s, %s, %d failed",
			checkpointWhy(s.toolCalls, delta, p.ReflectionCadence), plural(s.window.Reads, "read"), plural(s.window.Edits, "edit"), s.window.Failed),
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
// cards, events and datalog rows stay, a stall nudge's too, whose count
// the checkpoint also carries as since_progress). Without a checkpoint
// nothing changes.
func foldIntoCheckpoint(sum RoundSummary, p Policy, s *State, found []Intervention) []Intervention {
	var notes []string
	for _, in := range found {
		if in.Action == Inject {
			notes = append(notes, in.note())
		}
	}
	cp := checkpoint(sum, p, s, notes)
	if cp == nil {
		return found
	}
	out := make([]Intervention, 0, len(found)+1)
	for _, in := range found {
		if in.Kind == KindStall {
			cp.Figures["since_progress"] = in.Figures["calls"]
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

// checkpointWhy says when a checkpoint fell and, when the calls since the
// last one are not the cadence, why: checkpoints are due at each multiple
// of the cadence, and a round of parallel calls can run past one (then the
// next comes sooner after it).
func checkpointWhy(at, delta, cadence int) string {
	due := at / cadence * cadence
	s := fmt.Sprintf("checkpoint after %s (cadence %d", plural(delta, "tool call"), cadence)
	switch last := at - delta; {
	case delta > cadence:
		s += fmt.Sprintf(": due at call %d, the round's calls went on to call %d", due, at)
	case delta < cadence && last > 0:
		s += fmt.Sprintf(": due at call %d; the last one came at call %d, after its round went past call %d", due, last, last/cadence*cadence)
	case delta < cadence:
		s += fmt.Sprintf(": due at call %d", due)
	}
	return s + ")"
}
