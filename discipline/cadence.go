package discipline

import "fmt"

// ShouldReflect reports whether a checkpoint is due: never when cadence is
// 0; otherwise when delta = toolCalls - lastReflectionAt (0 when the
// marker is ahead) has reached cadence. A round with several calls may
// jump past the cadence, so delta can exceed it.
func ShouldReflect(toolCalls, lastReflectionAt, cadence int) (delta int, ok bool) {
	if cadence <= 0 {
		return 0, false
	}
	delta = max(toolCalls-lastReflectionAt, 0)
	return delta, delta >= cadence
}

// checkpoint fires the scheduled checkpoint and moves the marker. It skips a
// round where the model ended its turn: a checkpoint must not send a
// finished model back to work.
func checkpoint(sum RoundSummary, p Policy, s *State) *Intervention {
	if sum.EndedTurn {
		return nil
	}
	delta, ok := ShouldReflect(s.toolCalls, s.reflectedAt, p.ReflectionCadence)
	if !ok {
		return nil
	}
	rep := Report(*s, p)
	in := &Intervention{
		Kind:       KindReflection,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message:    ReflectionPrompt(delta, s.window, s.plan, rep),
		Why: fmt.Sprintf("checkpoint after %d tool calls (cadence %d): %s, %s, %d failed",
			delta, p.ReflectionCadence, plural(s.window.Reads, "read"), plural(s.window.Edits, "edit"), s.window.Failed),
		Figures: map[string]int{
			"delta": delta, "cadence": p.ReflectionCadence, "reads": s.window.Reads,
			"edits": s.window.Edits, "commands": s.window.Commands, "failed": s.window.Failed,
		},
	}
	s.reflectedAt = s.toolCalls
	s.window = Activity{}
	s.doneAtCheckpoint = s.plan.titles(StepCompleted)
	return in
}
