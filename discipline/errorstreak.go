package discipline

import (
	"fmt"
	"maps"
	"strings"
)

// KindErrorStreak is the error-streak guard's note.
const KindErrorStreak Kind = "error_streak"

var (
	errorStreakWarn = intSetting("error_streak", 3, "note at this many identical failures in a row; 0 disables")
	errorStreakHalt = intSetting("error_streak_halt", 5, "ask the user (headless: halt) at this many; 0 disables")
)

var errorStreakGuard = &Guard{
	Name: "error_streak", Kind: KindErrorStreak, Rank: 1,
	Settings:     []*Setting{errorStreakWarn, errorStreakHalt},
	Call:         observeError,
	WorldChanged: func(s *State) { delete(s.own, "error_streak") },
}

// streaks is each tool's current failure streak.
type streaks struct{ byTool map[string]streak }

func (s *streaks) clone() guardState { return &streaks{byTool: maps.Clone(s.byTool)} }

// streak is one tool's run of identical failures.
type streak struct {
	key      string // failure identity: target and line
	target   string // the command or the file the call acted on
	line     string // the normalized failure line
	args     string // the arguments of the run's first call
	sameArgs bool   // every call in the run had those arguments
	count    int
}

// failed reports whether a call failed: an error result or a command's
// non-zero exit.
func failed(c ToolCall) bool { return c.IsError || c.ExitCode != 0 }

// observeError tracks each tool's run of identical failures. A failure's
// identity is the tool, what it acted on (the normalized command, or the
// file) and its most informative line (see FailureLine), so six different
// scripts failing, even with the same exception, never form a streak. The
// run ends when the tool succeeds, fails differently, or any file changes
// (then a repeated failure is news, not a calling mistake).
func observeError(s *State, c ToolCall, call int, p *Policy) *Intervention {
	all := stateOf[streaks](s, "error_streak")
	if len(c.Changed) > 0 {
		all.byTool = nil
	}
	if !failed(c) {
		delete(all.byTool, c.Name)
		return nil
	}
	if all.byTool == nil {
		all.byTool = map[string]streak{}
	}
	target, line := callTarget(c), failureLine(c)
	key := target + "\x00" + line
	st := all.byTool[c.Name]
	if st.key == key {
		st.count++
		st.sameArgs = st.sameArgs && st.args == c.Args
	} else {
		st = streak{key: key, target: target, line: line, args: c.Args, sameArgs: true, count: 1}
	}
	all.byTool[c.Name] = st
	what := st.describe(c)
	warn, halt := p.num(errorStreakWarn), p.num(errorStreakHalt)
	if halt > 0 && st.count >= halt {
		delete(all.byTool, c.Name) // as with repeats: ask once, then count again
		return escalate(p, call,
			fmt.Sprintf("%s failed %s in a row with %q (halt at %d)", what, plural(st.count, "time"), st.line, halt),
			fmt.Sprintf("keel stopped a loop: %s failed %s in a row the same way: %q. %s", what, plural(st.count, "time"), st.line, st.advice(c)),
			map[string]int{"streak": st.count, "halt_at": halt})
	}
	if warn <= 0 || st.count != warn {
		return nil
	}
	return &Intervention{
		Kind:       KindErrorStreak,
		AtToolCall: call,
		Action:     Inject,
		Message: fmt.Sprintf("%s has failed %s in a row with the same message: %q. %s",
			upperFirst(what), plural(st.count, "time"), st.line, st.advice(c)),
		Note:    fmt.Sprintf("%s failed %s in a row with %q: %s", what, plural(st.count, "time"), st.line, st.advice(c)),
		Why:     fmt.Sprintf("%s failed %s in a row with %q", what, plural(st.count, "time"), st.line),
		Figures: map[string]int{"streak": st.count, "warn_at": warn},
	}
}

// describe names what failed: the command, or the tool and its target.
func (st streak) describe(c ToolCall) string {
	if c.Command != "" {
		return describeCall(c)
	}
	if st.target == c.Args {
		return fmt.Sprintf("%s %s", c.Name, truncate(st.target, maxArgsShown))
	}
	return fmt.Sprintf("%s on %s", c.Name, truncate(st.target, maxArgsShown))
}

// advice says what to do, claiming a calling mistake only when the very
// same call failed the same way every time.
func (st streak) advice(c ToolCall) string {
	switch {
	case c.Command != "":
		return "Running it again unchanged will fail the same way: change the code or the command first, or try a different approach."
	case st.sameArgs:
		return "This is not transient: the problem is in how it is called. Check the arguments against what the tool expects and against the actual target, or use a different approach; do not retry it unchanged."
	}
	return fmt.Sprintf("The arguments changed but the failure did not: look at %s itself (read it again) before another attempt, or use a different approach.", truncate(st.target, maxArgsShown))
}

// upperFirst starts a sentence with "The command" rather than "the
// command"; a tool's name is left as it is spelled.
func upperFirst(s string) string {
	if rest, ok := strings.CutPrefix(s, "the "); ok {
		return "The " + rest
	}
	return s
}
