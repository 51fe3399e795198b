package shell

import (
	"regexp"
	"testing"
)

// lowerNamePattern is what lowerName checks, as a regexp.
var lowerNamePattern = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

func TestLowerNameMatchesItsPattern(t *testing.T) {
	for _, name := range []string{"", "a", "_", "x1", "_9", "npm_config_x", "http_proxy", "1x", "9", "A", "aB", "a-b",
		"a b", "a\n", "\na", "é", "aé", "a$", "PATH", "a.b", "a\x00"} {
		if got, want := lowerName(name), lowerNamePattern.MatchString(name); got != want {
			t.Errorf("lowerName(%q) = %v; the pattern says %v", name, got, want)
		}
	}
}

func FuzzLowerName(f *testing.F) {
	for _, s := range []string{"", "a", "_1", "1a", "aZ", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := lowerName(name), lowerNamePattern.MatchString(name); got != want {
			t.Fatalf("lowerName(%q) = %v; the pattern says %v", name, got, want)
		}
	})
}
