package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCapOutput(t *testing.T) {
	long := strings.Repeat("a", 600) + strings.Repeat("é", 300) + strings.Repeat("z", 600)
	lines := strings.Repeat("héllo\n", 10000)
	cases := []struct {
		name       string
		in         string
		max        int
		cut        bool
		head, tail string
	}{
		{"short stays", "hello", 100, false, "", ""},
		{"exact stays", strings.Repeat("x", 100), 100, false, "", ""},
		{"zero keeps all", long, 0, false, "", ""},
		{"long is cut", long, 1000, true, strings.Repeat("a", 500), strings.Repeat("z", 200)},
		{"lines are counted", lines, 1000, true, "héllo\nhéllo", "héllo\n"},
		{"a cut inside characters", strings.Repeat("é", 5000), 999, true, "é", "é"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CapOutput(c.in, c.max)
			if !c.cut {
				if got != c.in {
					t.Fatalf("changed: %.80q", got)
				}
				return
			}
			if len(got) > c.max {
				t.Errorf("%d bytes for a cap of %d", len(got), c.max)
			}
			if !strings.HasPrefix(got, c.head) || !strings.HasSuffix(got, c.tail) || !strings.Contains(got, "cut by keel") {
				t.Errorf("head, tail or note missing: %.120q", got)
			}
			if !utf8.ValidString(got) {
				t.Error("the cut split a character")
			}
		})
	}
	if got := CapOutput(lines, 1000); !strings.Contains(got, "lines) cut by keel") || strings.Contains(got, "(0 lines)") {
		t.Errorf("the note does not count the lines cut: %q", got)
	}
}
