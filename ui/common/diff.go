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
		out = append(out, diffStyle(st, l).Render(l))
	}
	if more > 0 {
		out = append(out, st.Dim.Render(fmt.Sprintf("… %d more lines (ctrl+o expands)", more)))
	}
	return out
}

// diffStyle is the colour of one diff line, by its first characters.
func diffStyle(st theme.Styles, l string) Styler {
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		return st.Bold
	case strings.HasPrefix(l, "@@"):
		return st.DiffHunk
	case strings.HasPrefix(l, "+"):
		return st.DiffAdd
	case strings.HasPrefix(l, "-"):
		return st.DiffDel
	}
	return plainStyle{}
}

// plainStyle renders text as it is.
type plainStyle struct{}

func (plainStyle) Render(s ...string) string { return strings.Join(s, " ") }

// WrappedDiff colours a diff for width columns without cutting anything:
// a line wider than width goes on under its first column, in its colour,
// so the whole change can be read before it is approved.
func WrappedDiff(st theme.Styles, d string, width int) []string {
	lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		l = strings.ReplaceAll(l, "\t", "    ")
		style := diffStyle(st, l)
		if ansi.StringWidth(l) <= width || width < 4 {
			out = append(out, style.Render(l))
			continue
		}
		out = append(out, style.Render(ansi.Truncate(l, width, "")))
		rest := ansi.TruncateLeft(l, width, "")
		for _, part := range strings.Split(ansi.Hardwrap(rest, width-1, true), "\n") {
			out = append(out, style.Render(" "+part)) // continued: indented one column, under the mark
		}
	}
	return out
}
