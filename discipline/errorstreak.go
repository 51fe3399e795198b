package discipline

import (
	"fmt"
	"strings"
)

// failed reports whether a call failed: an error result or a command's
// non-zero exit.
func failed(c ToolCall) bool { return c.IsError || c.ExitCode != 0 }

// errorLine is the normalized line a failure is compared by. A command
// whose first line says nothing ("(no output)", only an exit code) is
// compared by the command too: three different searches that each found
// nothing are exploration, not a calling mistake.
func errorLine(c ToolCall) string {
	l := NormalizeError(c.ErrorLine)
	if c.Command == "" || !uninformative(l) {
		return l
	}
	if l == "" {
		l = fmt.Sprintf("exit code %d", c.ExitCode)
	}
	return l + " from " + NormalizeError(c.Command)
}

func uninformative(line string) bool {
	return line == "" || strings.HasPrefix(line, "(no output)") || strings.HasPrefix(line, "[exit code")
}

// observeError tracks each tool's run of identical failures. The run ends
// when the tool succeeds, fails differently, or any file changes (then a
// repeated failure is news, not a calling mistake).
func (s *State) observeError(c ToolCall, call int, p Policy) *Intervention {
	if !failed(c) {
		delete(s.streaks, c.Name)
		return nil
	}
	if s.streaks == nil {
		s.streaks = map[string]streak{}
	}
	line := errorLine(c)
	st := s.streaks[c.Name]
	if st.line == line {
		st.count++
	} else {
		st = streak{line: line, count: 1}
	}
	s.streaks[c.Name] = st
	if p.ErrorStreakHalt > 0 && st.count >= p.ErrorStreakHalt {
		delete(s.streaks, c.Name) // as with repeats: ask once, then count again
		return escalate(p, call,
			fmt.Sprintf("%s failed %d times in a row with %q (halt at %d)", c.Name, st.count, line, p.ErrorStreakHalt),
			fmt.Sprintf("keel stopped a loop: %s failed %d times in a row the same way: %q. Retrying it unchanged will not help.", c.Name, st.count, line),
			map[string]int{"streak": st.count, "halt_at": p.ErrorStreakHalt})
	}
	if p.ErrorStreak <= 0 || st.count != p.ErrorStreak {
		return nil
	}
	return &Intervention{
		Kind:       KindErrorStreak,
		AtToolCall: call,
		Action:     Inject,
		Message: fmt.Sprintf("%s has failed %d times in a row with the same message: %q. This is not transient: the problem is in how it is called. Check the arguments against what the tool expects and against the actual target, or use a different approach; do not retry it unchanged.",
			c.Name, st.count, line),
		Why:     fmt.Sprintf("%s failed %d times in a row with %q", c.Name, st.count, line),
		Figures: map[string]int{"streak": st.count, "warn_at": p.ErrorStreak},
	}
}
