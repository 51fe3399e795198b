package discipline

import (
	"fmt"
	"strings"
	"unicode"
)

// maxTextShown bounds the answer quoted in a monologue message.
const maxTextShown = 80

// NormalizeText returns an answer's text as the monologue guard compares
// it: lower case, whitespace collapsed, final punctuation (.!?…:;,) dropped.
func NormalizeText(text string) string {
	t := strings.ToLower(strings.Join(strings.Fields(text), " "))
	return strings.TrimRightFunc(t, func(r rune) bool { return strings.ContainsRune(".!?…:;,", r) || unicode.IsSpace(r) })
}

// monologue counts the model's answers in a row that end the turn with
// the same normalized text and no tool call; any round with tool calls
// ends the run. It warns at MonologueWarn and asks the user (headless:
// halts) at MonologueHalt. It can only grow when something sends the
// finished model back (a reminder, a guard's message), so a model that
// answers once is never counted twice.
func monologue(sum RoundSummary, p Policy, s *State) *Intervention {
	if !sum.EndedTurn {
		s.mono = monoRun{}
		return nil
	}
	text := NormalizeText(sum.Text)
	if s.mono.count > 0 && s.mono.text == text {
		s.mono.count++
	} else {
		s.mono = monoRun{text: text, count: 1}
	}
	n := s.mono.count
	shown := fmt.Sprintf("%q", truncate(strings.TrimSpace(sum.Text), maxTextShown))
	if p.MonologueHalt > 0 && n >= p.MonologueHalt {
		s.mono = monoRun{}
		return escalate(p, s.toolCalls,
			fmt.Sprintf("the model gave the same answer %d times in a row with no tool call (halt at %d)", n, p.MonologueHalt),
			fmt.Sprintf("keel stopped a loop: you gave the same answer %d times in a row without calling a tool: %s.", n, shown),
			map[string]int{"answers": n, "halt_at": p.MonologueHalt})
	}
	if p.MonologueWarn <= 0 || n != p.MonologueWarn {
		return nil
	}
	return &Intervention{
		Kind:       KindMonologue,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message: fmt.Sprintf("You have given the same answer %d times in a row without calling a tool: %s. Repeating it changes nothing. If the task is done, say what was done and stop; if work remains, make the next tool call; if a plan step no longer applies, mark it skipped or failed with update_plan.",
			n, shown),
		Note:    fmt.Sprintf("you gave the same answer %d times in a row without a tool call: finish, act, or update the plan.", n),
		Why:     fmt.Sprintf("the model gave the same answer %d times in a row with no tool call (warn at %d)", n, p.MonologueWarn),
		Figures: map[string]int{"answers": n, "warn_at": p.MonologueWarn},
	}
}

// monoRun is the current run of identical turn-ending answers.
type monoRun struct {
	text  string
	count int
}
