package discipline

import "fmt"

var alternationHalt = intSetting("alternation_halt", 6, "ask the user (headless: halt) after this many calls alternating A,B,A,B with identical results; 0 disables")

// Alternation only halts: its findings are KindHalt.
var alternationGuard = &Guard{
	Name: "alternation", Kind: KindHalt, Rank: 0,
	Settings: []*Setting{alternationHalt},
	Call:     observeAlternation,
	Forget:   func(s *State) { stateOf[altWindow](s, "alternation").recent = nil },
}

// altWindow is the last calls' keys and the call before the current one.
type altWindow struct {
	recent []string // never written in place (appendCopy)
	prev   ToolCall
}

func (w *altWindow) clone() guardState { c := *w; return &c }

// observeAlternation keeps the last calls (identity and result, see
// callKey) and halts when the last AlternationHalt of them alternate
// between two calls, A,B,A,B,…, each returning what it returned before.
// Edits do not clear the window: an edit undone and redone, identically,
// is the loop it is meant to catch. Compaction and a new task do.
func observeAlternation(s *State, c ToolCall, call int, p *Policy) *Intervention {
	w := stateOf[altWindow](s, "alternation")
	n := p.num(alternationHalt)
	prev := w.prev
	w.prev = c
	if n < 4 {
		return nil // A,B,A is too short to call a loop; 0 disables
	}
	if c.Job != nil && (c.Job.Running || c.Job.Started) {
		w.recent = nil // waiting on a running job is not a loop (see the job guard)
		return nil
	}
	w.recent = appendCopy(w.recent, callKey(c))
	if len(w.recent) > n {
		w.recent = w.recent[len(w.recent)-n:]
	}
	if len(w.recent) < n || !alternates(w.recent) {
		return nil
	}
	w.recent = nil // ask once; if the user lets the task go on, watch afresh
	return escalate(p, call,
		fmt.Sprintf("%s alternated between two calls with identical results each time (halt at %d)", plural(n, "call"), n),
		fmt.Sprintf("keel stopped a loop: the last %s alternated between %s and %s, each returning what it returned before. Neither call is telling you anything new; decide from what they returned, or change the approach.",
			plural(n, "call"), describeCall(prev), describeCall(c)),
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
