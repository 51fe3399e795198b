package discipline

import (
	"fmt"
	"maps"
	"slices"
)

var flipFlopHalt = intSetting("flip_flop_halt", 2, "ask the user (headless: halt) when one file returns for this many times to a content it already had in the task; 0 disables")

// The flip-flop guard only halts: its findings are KindHalt.
var flipFlopGuard = &Guard{
	Name: "flip_flop", Kind: KindHalt, Rank: 0,
	Settings: []*Setting{flipFlopHalt},
	Call:     observeFlipFlop,
}

// contents is, per file, the content hashes it has had in the task and
// how many times it went back to one of them.
type contents struct {
	seen    map[string][]string // path -> hashes, in order (never written in place)
	returns map[string]int
}

func (c *contents) clone() guardState {
	return &contents{seen: maps.Clone(c.seen), returns: maps.Clone(c.returns)}
}

// maxContents bounds the hashes kept per file.
const maxContents = 64

// observeFlipFlop follows each edited file's content by hash. A change
// that brings a file back to a content it already had in this task is a
// return; the FlipFlopHalt-th return of one file is a loop, with tests
// run between the edits or not (the tests ran on contents already
// tried). The first return is not: undoing a debug print or a bad edit
// is normal work.
func observeFlipFlop(s *State, c ToolCall, call int, p *Policy) *Intervention {
	if len(c.Edits) == 0 {
		return nil
	}
	st := stateOf[contents](s, "flip_flop")
	if st.seen == nil {
		st.seen, st.returns = map[string][]string{}, map[string]int{}
	}
	var found *Intervention
	for _, e := range c.Edits {
		if in := st.observe(e, call, p); in != nil && found == nil {
			found = in
		}
	}
	return found
}

func (st *contents) observe(e Edit, call int, p *Policy) *Intervention {
	hist := st.seen[e.Path]
	if e.Before != "" && len(hist) == 0 {
		hist = []string{e.Before}
	}
	back := e.After != "" && e.After != e.Before && slices.Contains(hist, e.After)
	if !slices.Contains(hist, e.After) {
		hist = appendCopy(hist, e.After)
		if len(hist) > maxContents {
			hist = hist[len(hist)-maxContents:]
		}
	}
	st.seen[e.Path] = hist
	if !back {
		return nil
	}
	st.returns[e.Path]++
	n := st.returns[e.Path]
	halt := p.num(flipFlopHalt)
	if halt <= 0 || n < halt {
		return nil
	}
	st.returns[e.Path] = 0 // ask once; if the user lets the task go on, count again
	what := "a content it already had"
	if e.After == Absent {
		what = "not existing, as it did before"
	}
	return escalate(p, call,
		fmt.Sprintf("%s went back to %s in this task for the %s time (halt at %d)", e.Path, what, ordinal(n), halt),
		fmt.Sprintf("keel stopped a loop: %s went back to %s for the %s time in this task: the edits are flipping between versions already tried. Decide from what those versions showed, or try a different change.", e.Path, what, ordinal(n)),
		map[string]int{"returns": n, "halt_at": halt})
}

// ordinal renders 2 as "second", and past ten "11th".
func ordinal(n int) string {
	words := []string{"zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return fmt.Sprintf("%dth", n)
}
