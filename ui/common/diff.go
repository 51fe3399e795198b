package common

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/ui/theme"
)

// MaxCollapsedDiff is how many diff lines an edit shows before it is
// expanded.
const MaxCollapsedDiff = 12

// Diff colours a unified diff for width columns; abridged, it keeps the
// first lines and says how many more there are. The transcript draws an
// edit's diff with it, and the permission dialog an edit's preview.
func Diff(st theme.Styles, d string, width int, abridged bool) []string {
	lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
	more := 0
	if abridged && len(lines) > MaxCollapsedDiff {
		more = len(lines) - MaxCollapsedDiff
		lines = lines[:MaxCollapsedDiff]
	}
	out := make([]string, 0, len(lines)+1)
	for _, l := range lines {
		l = ansi.Truncate(strings.ReplaceAll(l, "\t", "    "), width, "…")
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			out = append(out, st.Bold.Render(l))
		case strings.HasPrefix(l, "@@"):
			out = append(out, st.DiffHunk.Render(l))
		case strings.HasPrefix(l, "+"):
			out = append(out, st.DiffAdd.Render(l))
		case strings.HasPrefix(l, "-"):
			out = append(out, st.DiffDel.Render(l))
		default:
			out = append(out, l)
		}
	}
	if more > 0 {
		out = append(out, st.Dim.Render(fmt.Sprintf("… %d more lines (ctrl+o expands)", more)))
	}
	return out
}
