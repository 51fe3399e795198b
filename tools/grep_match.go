package tools

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"slices"
)

// lineMatcher finds a pattern's matching lines in a whole file without
// splitting it: candidates come from the required literals (finder) or,
// with none, from the pattern run over the whole buffer in multi-line mode
// (whole); each candidate line is then checked with the pattern itself.
type lineMatcher struct {
	re    *regexp.Regexp // the pattern, run on one line
	find  *finder        // nil: no required literal
	pure  bool           // a line holding a literal matches: no regexp needed
	also  []*finder      // a candidate line lacking one's literals cannot match
	dfa   bool           // a lineDFA can run the pattern: it checks candidates, or every line when there is no literal
	whole *regexp.Regexp // no literal nor DFA: the (?m) pattern; nil when it could miss a line (\A, \z)
}

// matchScratch is one searcher's reusable state.
type matchScratch struct {
	st   findState
	line findState // for also, one line at a time
	dfa  *lineDFA  // this searcher's own, built on first use
	slow bool      // the DFA kept overflowing its cache: use the regexp
	hits []lineSpan
}

// lineSpan is a matching line: its number and byte range without "\n".
type lineSpan struct{ num, start, end int }

func newLineMatcher(re *regexp.Regexp) *lineMatcher {
	m := &lineMatcher{re: re}
	lits, pure, also := required(re.String())
	if lits != nil {
		m.find, m.pure = newFinder(lits), pure
	}
	for _, set := range also {
		m.also = append(m.also, newFinder(set))
	}
	m.dfa = newLineDFA(re.String()) != nil
	if expr := "(?m)" + re.String(); m.find == nil && !textAnchored(expr) {
		m.whole, _ = regexp.Compile(expr)
	}
	return m
}

// textAnchored reports whether expr holds an assertion that means a line
// edge in one line but the text's edge in a whole file (\A, \z, (?-m:^)).
func textAnchored(expr string) bool {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return true
	}
	var walk func(*syntax.Regexp) bool
	walk = func(re *syntax.Regexp) bool {
		if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
			return true
		}
		return slices.ContainsFunc(re.Sub, walk)
	}
	return walk(re)
}

// lines returns the matching lines of data, at most limit.
func (m *lineMatcher) lines(data []byte, sc *matchScratch, limit int) []lineSpan {
	sc.hits = sc.hits[:0]
	if m.dfa && sc.dfa == nil && !sc.slow {
		sc.dfa = newLineDFA(m.re.String())
	}
	if sc.dfa != nil && sc.dfa.thrashing() {
		sc.dfa, sc.slow = nil, true
	}
	if sc.dfa != nil && m.find == nil {
		return m.dfaLines(data, sc, limit)
	}
	if m.find != nil {
		sc.st = m.find.reset(sc.st)
	}
	num, counted := 1, 0 // num is the line number at byte counted
	for pos := 0; pos < len(data) && len(sc.hits) < limit; {
		at := m.candidate(data, pos, sc)
		if at < 0 {
			break
		}
		start := pos + bytes.LastIndexByte(data[pos:at], '\n') + 1
		end := len(data)
		if i := bytes.IndexByte(data[at:], '\n'); i >= 0 {
			end = at + i
		}
		if m.pure || m.mayMatch(data[start:end], sc) && m.verify(data[start:end], sc) {
			num += bytes.Count(data[counted:start], []byte{'\n'})
			counted = start
			sc.hits = append(sc.hits, lineSpan{num, start, end})
		}
		pos = end + 1
	}
	return sc.hits
}

// verify reports whether a candidate line matches the pattern.
func (m *lineMatcher) verify(line []byte, sc *matchScratch) bool {
	if sc.dfa != nil {
		return sc.dfa.matchLine(line)
	}
	return m.re.Match(line)
}

// dfaLines runs each line of data through the searcher's lineDFA.
func (m *lineMatcher) dfaLines(data []byte, sc *matchScratch, limit int) []lineSpan {
	for start, num := 0, 1; start < len(data) && len(sc.hits) < limit; num++ {
		end := lineEnd(data, start)
		if sc.dfa.matchLine(data[start:end]) {
			sc.hits = append(sc.hits, lineSpan{num, start, end})
		}
		start = end + 1
	}
	return sc.hits
}

// mayMatch reports whether line holds a literal of each set of also.
func (m *lineMatcher) mayMatch(line []byte, sc *matchScratch) bool {
	for _, f := range m.also {
		sc.line = f.reset(sc.line)
		if f.next(line, 0, sc.line) < 0 {
			return false
		}
	}
	return true
}

// candidate is where the next possible match at or after pos (a line
// start) is, or -1 when there is none.
func (m *lineMatcher) candidate(data []byte, pos int, sc *matchScratch) int {
	switch {
	case m.find != nil:
		return m.find.next(data, pos, sc.st)
	case m.whole != nil:
		loc := m.whole.FindIndex(data[pos:])
		if loc == nil || pos+loc[0] == len(data) && data[len(data)-1] == '\n' {
			return -1 // none, or an empty match after the last line
		}
		return pos + loc[0]
	}
	return pos // every line is a candidate
}

// withContext turns hits into output lines with c lines of context.
func withContext(data []byte, hits []lineSpan, c int) []grepLine {
	out := make([]grepLine, 0, len(hits)*(1+2*c))
	next := 1 // the first line not yet emitted
	for i, h := range hits {
		before := lineStarts(data, h.start, max(next, h.num-c), h.num)
		for k, s := range before {
			out = append(out, lineAt(data, s, h.num-len(before)+k, false))
		}
		out = append(out, lineAt(data, h.start, h.num, true))
		next = h.num + 1
		stop := h.num + c
		if i+1 < len(hits) {
			stop = min(stop, hits[i+1].num-1)
		}
		for s := h.end + 1; next <= stop && s < len(data); next++ {
			out = append(out, lineAt(data, s, next, false))
			s = lineEnd(data, s) + 1
		}
	}
	return out
}

// lineStarts returns the starts of lines from..num-1 that precede the line
// starting at start (line num).
func lineStarts(data []byte, start, from, num int) []int {
	if from >= num {
		return nil
	}
	starts := make([]int, num-from)
	for k := len(starts) - 1; k >= 0; k-- {
		start = bytes.LastIndexByte(data[:start-1], '\n') + 1
		starts[k] = start
	}
	return starts
}

func lineEnd(data []byte, start int) int {
	if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
		return start + i
	}
	return len(data)
}

// lineAt is the line starting at start, with its newline as rg gives it.
func lineAt(data []byte, start, num int, match bool) grepLine {
	end := lineEnd(data, start)
	if end < len(data) {
		end++
	}
	return grepLine{num: num, text: string(data[start:end]), match: match}
}
