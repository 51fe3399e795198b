package tools

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestLineDFA(t *testing.T) {
	lines := []string{"", "abc", "ABC123", "x ABC123 y", "é1", "\xff", "a\tb", "k", "\u212a"}
	for _, pattern := range []string{
		`[A-Z]{3}[0-9]{3}`, `^$`, `^abc$`, `\Aab`, `c\z`, `(?i)K`, `.`, `\p{L}\d`, `[^a-z]`, `a|^$`, `(?s).`, `x*`,
	} {
		t.Run(pattern, func(t *testing.T) {
			d, re := newLineDFA(pattern), regexp.MustCompile(pattern)
			if d == nil {
				t.Fatal("no DFA")
			}
			for _, l := range lines {
				if got, want := d.matchLine([]byte(l)), re.MatchString(l); got != want {
					t.Errorf("line %q: DFA %v, regexp %v", l, got, want)
				}
			}
		})
	}
	for _, pattern := range []string{`\bword\b`, `a\B`} {
		if newLineDFA(pattern) != nil {
			t.Errorf("%s: a DFA for a word boundary", pattern)
		}
	}
}

// A pattern whose DFA needs more states than the cache holds falls back to
// the regexp after a few overflows, with the same answers.
func TestLineDFAThrashing(t *testing.T) {
	pattern := `(a|b)*a(a|b){13}`
	re := regexp.MustCompile(pattern)
	r := rand.New(rand.NewPCG(5, 5))
	var text []byte
	for range 4000 {
		for range 40 {
			text = append(text, "ab"[r.IntN(2)])
		}
		text = append(text, '\n')
	}
	m := newLineMatcher(re)
	var sc matchScratch
	var got []int
	for range 3 { // the first files thrash the DFA; the later ones use the regexp
		got = got[:0]
		for _, h := range m.lines(text, &sc, len(text)) {
			got = append(got, h.num)
		}
	}
	if !sc.slow {
		t.Error("the DFA was kept")
	}
	var want []int
	for i, line := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		if re.MatchString(line) {
			want = append(want, i+1)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%d lines found, want %d", len(got), len(want))
	}
}
