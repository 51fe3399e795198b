package helpview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/ui/keys"
	"github.com/keel-dev/keel/ui/theme"
)

// TestHelpLinesReflow: in one column, long lines wrap under their
// description instead of being cut.
func TestHelpLinesReflow(t *testing.T) {
	st := theme.New(true, true)
	cmds := []Entry{{"/cadence N", "checkpoint every N tool calls (0: off), a long description that cannot fit"}}
	for _, w := range []int{40, 60, 100} {
		lines := Lines(st, keys.Default(), cmds, w)
		text := ansi.Strip(strings.Join(lines, "\n"))
		for i, l := range lines {
			if lw := ansi.StringWidth(l); lw > w {
				t.Errorf("width %d: line %d is %d wide: %q", w, i, lw, ansi.Strip(l))
			}
		}
		for _, word := range strings.Fields(cmds[0].Desc) {
			if !strings.Contains(text, word) {
				t.Errorf("width %d: %q lost", w, word)
			}
		}
	}
}

// TestScrollLineFits: the scroll hint is never wider than the screen.
func TestScrollLineFits(t *testing.T) {
	for _, w := range []int{10, 20, 40, 60, 120} {
		if l := scrollLine(100, 119, 250, w); ansi.StringWidth(l) > w && w >= 15 {
			t.Errorf("width %d: %q", w, l)
		}
	}
}
