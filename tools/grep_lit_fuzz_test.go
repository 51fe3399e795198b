package tools

import (
	"regexp"
	"strings"
	"testing"
)

// FuzzLineMatcher checks the fast paths against the regexp itself: the
// lines the matcher reports are exactly those the pattern matches one by
// one, and whenever the pattern matches a line, the literal finder does
// not reject it.
func FuzzLineMatcher(f *testing.F) {
	for _, s := range [][2]string{
		{`hello`, "say hello\nno\n"},
		{`(?i)kelvin`, "\u212aELVIN\nkelvin\n"},
		{`(?i)mask`, "MAſK\n"},
		{`(?i)ΩMEGA`, "\u2126mega\nωMEGA"},
		{`colou?r|TODO`, "colour\ncolor\nTODO"},
		{`\x{fffd}`, "a\xffb\n"},
		{`a.b`, "a\xffb\n"},
		{`^$`, "\n\na\n"},
		{`x*`, ""},
		{`\Aab|cd\z`, "ab\ncd\nab cd\n"},
		{`(?-m:^)b`, "a\nb\n"},
		{`a\s+b`, "a\nb\n"},
		{`[Hh]andler [0-9]{2}`, "Handler 12\nhANDLER 12\n"},
		{`(?s)a.b`, "a\nb\naxb\n"},
		{`\bnil\b`, "nil\nnils\n(nil)"},
		{`[A-Z]{3}[0-9]{3}`, "ABC123\nab123\nXABC1234\n"},
		{`^[a-z]*$|^$`, "abc\n\nAb\n"},
		{`(?i)[a-z]\d$`, "x1\nK9\n\u212a9\nx1y\n"},
		{`.+\z|\A.`, "a\n\n"},
		{`\A`, "0\n"}, // the DFA's start state already matches
		{`[^a-z]{2,}`, "ab\n12\né\xff\n"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		m := newLineMatcher(re)
		dfa := newLineDFA(pattern)
		var sc matchScratch
		got := m.lines([]byte(text), &sc, len(text)+1)
		lines := strings.SplitAfter(text, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		var want []int
		for i, l := range lines {
			line := strings.TrimSuffix(l, "\n")
			if dfa != nil && dfa.matchLine([]byte(line)) != re.MatchString(line) {
				t.Fatalf("pattern %q on line %q: the DFA says %v", pattern, line, !re.MatchString(line))
			}
			if re.MatchString(line) {
				want = append(want, i+1)
				if m.find != nil && m.find.next([]byte(line), 0, m.find.reset(nil)) < 0 {
					t.Fatalf("pattern %q matches line %q but the finder rejects it", pattern, line)
				}
			}
		}
		if len(got) != len(want) {
			t.Fatalf("pattern %q on %q: matcher found %v, regexp %v", pattern, text, got, want)
		}
		for i, h := range got {
			if h.num != want[i] || text[h.start:h.end] != strings.TrimSuffix(lines[h.num-1], "\n") {
				t.Fatalf("pattern %q on %q: matcher found %v, regexp lines %v", pattern, text, got, want)
			}
		}
	})
}
