package discipline

import (
	"fmt"
	"strings"
	"unicode"
)

// KindMonologue is the monologue guard's warning.
const KindMonologue Kind = "monologue"

var (
	monologueWarn = intSetting("monologue_warn", 3, "warn at this many identical answers in a row with no tool call; 0 disables")
	monologueHalt = intSetting("monologue_halt", 4, "ask the user (headless: halt) at this many; 0 disables")
)

var monologueGuard = &Guard{
	Name: "monologue", Kind: KindMonologue, Rank: 5,
	Settings: []*Setting{monologueWarn, monologueHalt},
	Round:    monologue,
}

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
func monologue(sum RoundSummary, p *Policy, s *State) *Intervention {
	run := stateOf[monoRun](s, "monologue")
	if !sum.EndedTurn {
		*run = monoRun{}
		return nil
	}
	text := NormalizeText(sum.Text)
	if run.count > 0 && run.text == text {
		run.count++
	} else {
		*run = monoRun{text: text, count: 1}
	}
	n := run.count
	warn, halt := p.num(monologueWarn), p.num(monologueHalt)
	shown := fmt.Sprintf("%q", truncate(strings.TrimSpace(sum.Text), maxTextShown))
	if halt > 0 && n >= halt {
		*run = monoRun{}
		in := escalate(p, s.toolCalls,
			fmt.Sprintf("the model gave the same answer %s in a row with no tool call (halt at %d)", plural(n, "time"), halt),
			fmt.Sprintf("keel stopped a loop: you gave the same answer %s in a row without calling a tool: %s.", plural(n, "time"), shown),
			map[string]int{"answers": n, "halt_at": halt})
		in.Replan = false // a replan would get the same answer, then end "completed"
		return in
	}
	if warn <= 0 || n != warn {
		return nil
	}
	return &Intervention{
		Kind:       KindMonologue,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message: fmt.Sprintf("You have given the same answer %s in a row without calling a tool: %s. Repeating it changes nothing. If the task is done, say what was done and stop; if work remains, make the next tool call; if a plan step no longer applies, mark it skipped or failed with update_plan.",
			plural(n, "time"), shown),
		Note:    fmt.Sprintf("you gave the same answer %s in a row without a tool call: finish, act, or update the plan.", plural(n, "time")),
		Why:     fmt.Sprintf("the model gave the same answer %s in a row with no tool call (warn at %d)", plural(n, "time"), warn),
		Figures: map[string]int{"answers": n, "warn_at": warn},
	}
}

// monoRun is the current run of identical turn-ending answers.
type monoRun struct {
	text  string
	count int
}

func (r *monoRun) clone() guardState { c := *r; return &c }
