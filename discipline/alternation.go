package discipline

import "fmt"

// observeAlternation keeps the last calls (identity and result, see
// callKey) and halts when the last AlternationHalt of them alternate
// between two calls, A,B,A,B,…, each returning what it returned before.
// Edits do not clear the window: an edit undone and redone, identically,
// is the loop it is meant to catch. Compaction and a new task do.
func (s *State) observeAlternation(c ToolCall, call int, p Policy) *Intervention {
	n := p.AlternationHalt
	prev := s.prevCall
	s.prevCall = c
	if n < 4 {
		return nil // A,B,A is too short to call a loop; 0 disables
	}
	s.recent = appendCopy(s.recent, callKey(c))
	if len(s.recent) > n {
		s.recent = s.recent[len(s.recent)-n:]
	}
	if len(s.recent) < n || !alternates(s.recent) {
		return nil
	}
	s.recent = nil // ask once; if the user lets the task go on, watch afresh
	return escalate(p, call,
		fmt.Sprintf("%d calls alternated between two calls with identical results each time (halt at %d)", n, n),
		fmt.Sprintf("keel stopped a loop: the last %d calls alternated between %s and %s, each returning what it returned before. Neither call is telling you anything new; decide from what they returned, or change the approach.",
			n, describeCall(prev), describeCall(c)),
		map[string]int{"calls": n, "halt_at": n})
}

// alternates reports whether keys go A,B,A,B,… with A different from B.
func alternates(keys []string) bool {
	if len(keys) < 2 || keys[0] == keys[1] {
		return false
	}
	for i := 2; i < len(keys); i++ {
		if keys[i] != keys[i-2] {
			return false
		}
	}
	return true
}
