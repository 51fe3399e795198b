package tools

import (
	"regexp"
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
