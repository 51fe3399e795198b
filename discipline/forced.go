package discipline

import "fmt"

// CheckpointNow fires a checkpoint at once, whatever the cadence (the
// TUI's /reflect): the same facts, report and questions as a scheduled
// one, over the calls since the last checkpoint. It returns the
// intervention and the state with the marker moved to now, so the next
// scheduled checkpoint counts from here. s is not modified.
func CheckpointNow(s State, p Policy) (Intervention, State) {
	s = s.clone()
	delta := s.window.Calls
	in := Intervention{
		Kind:       KindReflection,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message:    reflectionPrompt(delta, s.window, s.plan, Report(s, p), nil),
		Why: fmt.Sprintf("checkpoint asked for by the user (/reflect) after %s: %s, %s, %d failed",
			plural(delta, "tool call"), plural(s.window.Reads, "read"), plural(s.window.Edits, "edit"), s.window.Failed),
		Figures: map[string]int{
			"delta": delta, "forced": 1, "reads": s.window.Reads,
			"edits": s.window.Edits, "commands": s.window.Commands, "failed": s.window.Failed,
		},
	}
	s.reflectedAt = s.toolCalls
	s.window = Activity{}
	s.doneAtCheckpoint = s.plan.titles(StepCompleted)
	return in, s
}
