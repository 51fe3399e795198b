package discipline

import (
	"fmt"
	"strconv"
)

// maxArgsShown bounds the arguments quoted in a message.
const maxArgsShown = 120

// observeRepeat counts identical calls (tool, normalized arguments, result
// hash, error flag) since files last changed; AfterRound clears the counts
// on any change, so rerunning a test after an edit is never a repeat.
func (s *State) observeRepeat(c ToolCall, call int, p Policy) *Intervention {
	if (p.RepeatWarn <= 0 && p.RepeatHalt <= 0) || len(c.Changed) > 0 {
		return nil
	}
	if s.repeats == nil {
		s.repeats = map[string]int{}
	}
	key := c.Name + "\x00" + c.Args + "\x00" + c.ResultHash + "\x00" + strconv.FormatBool(c.IsError)
	n := s.repeats[key] + 1
	s.repeats[key] = n
	shown := truncate(c.Args, maxArgsShown)
	if p.RepeatHalt > 0 && n >= p.RepeatHalt {
		// The halt consumes the evidence: if the user lets the task go
		// on, the count starts again instead of asking at every call.
		delete(s.repeats, key)
		return escalate(p, call,
			fmt.Sprintf("%s with identical arguments returned an identical result %d times (halt at %d)", c.Name, n, p.RepeatHalt),
			fmt.Sprintf("keel stopped a loop: %s %s returned the same result %d times. Do not call it again with these arguments; use its result or change the approach.", c.Name, shown, n),
			map[string]int{"repeats": n, "halt_at": p.RepeatHalt})
	}
	if p.RepeatWarn <= 0 || n != p.RepeatWarn {
		return nil
	}
	return &Intervention{
		Kind:       KindRepeat,
		AtToolCall: call,
		Action:     Inject,
		Message: fmt.Sprintf("You have made this exact call %d times and got the same result each time: %s %s. Calling it again will return the same thing; use what it returned, or change the arguments or the approach.",
			n, c.Name, shown),
		Why:     fmt.Sprintf("%s with identical arguments returned an identical result %d times (warn at %d)", c.Name, n, p.RepeatWarn),
		Figures: map[string]int{"repeats": n, "warn_at": p.RepeatWarn},
	}
}

// escalate builds the halt: a question to the user in a session with one,
// a stop with loop_detected when headless.
func escalate(p Policy, call int, why, msg string, figures map[string]int) *Intervention {
	action := Ask
	if p.Headless {
		action = Halt
	}
	return &Intervention{
		Kind: KindHalt, AtToolCall: call, Action: action, StopReason: StopLoopDetected,
		Why: why, Message: msg, Figures: figures,
	}
}

// truncate shortens s to at most n bytes, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
