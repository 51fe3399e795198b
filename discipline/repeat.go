package discipline

import (
	"fmt"
	"maps"
	"strconv"
)

// KindRepeat is the repeat guard's warning.
const KindRepeat Kind = "repeat"

var (
	repeatWarn = intSetting("repeat_warn", 3, "warn at this many identical calls with identical results; 0 disables")
	repeatHalt = intSetting("repeat_halt", 4, "halt with loop_detected at this many; 0 disables")
)

var repeatGuard = &Guard{
	Name: "repeat", Kind: KindRepeat, Rank: 2,
	Settings:     []*Setting{repeatWarn, repeatHalt},
	Call:         observeRepeat,
	Forget:       func(s *State) { delete(s.own, "repeat") },
	WorldChanged: func(s *State) { delete(s.own, "repeat") },
}

// repeatState counts identical calls since files last changed.
type repeatState struct{ counts map[string]int }

func (r *repeatState) clone() guardState { return &repeatState{counts: maps.Clone(r.counts)} }

// maxArgsShown bounds the arguments quoted in a message.
const maxArgsShown = 120

// observeRepeat counts identical calls (tool, normalized arguments, result
// hash, error flag) since files last changed; any change clears the
// counts, so rerunning a test after an edit is never a repeat.
func observeRepeat(s *State, c ToolCall, call int, p *Policy) *Intervention {
	st := stateOf[repeatState](s, "repeat")
	if len(c.Changed) > 0 {
		st.counts = nil // an identical call from now on is new evidence
		return nil
	}
	if c.Job != nil && (c.Job.Running || c.Job.Started) {
		return nil // polling a running job is waiting (see the job guard)
	}
	warn, halt := p.num(repeatWarn), p.num(repeatHalt)
	if warn <= 0 && halt <= 0 {
		return nil
	}
	if st.counts == nil {
		st.counts = map[string]int{}
	}
	key := callKey(c)
	n := st.counts[key] + 1
	st.counts[key] = n
	shown := describeCall(c)
	if halt > 0 && n >= halt {
		// The halt consumes the evidence: if the user lets the task go
		// on, the count starts again instead of asking at every call.
		delete(st.counts, key)
		return escalate(p, call,
			fmt.Sprintf("%s returned an identical result %s with nothing changed (halt at %d)", shown, plural(n, "time"), halt),
			fmt.Sprintf("keel stopped a loop: %s returned the same result %s. Do not call it again with these arguments; use its result or change the approach.", shown, plural(n, "time")),
			map[string]int{"repeats": n, "halt_at": halt})
	}
	if warn <= 0 || n != warn {
		return nil
	}
	return &Intervention{
		Kind:       KindRepeat,
		AtToolCall: call,
		Action:     Inject,
		Message: fmt.Sprintf("You have made this exact call %s and got the same result each time: %s. Nothing keel can see changed between them, so calling it again will most likely return the same thing; use what it returned, or change the arguments or the approach.",
			plural(n, "time"), shown),
		Note:    fmt.Sprintf("%s returned the same result %s: use what it returned, or change the arguments or the approach.", shown, plural(n, "time")),
		Why:     fmt.Sprintf("%s returned an identical result %s with nothing changed (warn at %d)", shown, plural(n, "time"), warn),
		Figures: map[string]int{"repeats": n, "warn_at": warn},
	}
}

// callKey identifies a call with its result: tool, normalized arguments,
// result hash and error flag.
func callKey(c ToolCall) string {
	return c.Name + "\x00" + c.Args + "\x00" + c.ResultHash + "\x00" + strconv.FormatBool(c.IsError)
}

// describeCall names a call in a message: the command for a command,
// else the tool and its arguments, shortened.
func describeCall(c ToolCall) string {
	if c.Command != "" {
		shown := fmt.Sprintf("the command %q", truncate(NormalizeCommand(c.Command), maxArgsShown))
		if w := cleanWorkdir(c.Workdir); w != "" {
			shown += " in " + truncate(w, maxArgsShown)
		}
		return shown
	}
	return c.Name + " " + truncate(c.Args, maxArgsShown)
}

// escalate builds the halt: a question to the user in a session with one,
// a stop with loop_detected when headless.
func escalate(p *Policy, call int, why, msg string, figures map[string]int) *Intervention {
	action := Ask
	if p.Headless {
		action = Halt
	}
	return &Intervention{
		Kind: KindHalt, AtToolCall: call, Action: action, StopReason: StopLoopDetected,
		Why: why, Message: msg, Figures: figures, Replan: true,
	}
}

// truncate shortens s to at most n bytes, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
