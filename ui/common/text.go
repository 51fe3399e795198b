package common

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Styler is the one method of lipgloss.Style the renderers use.
type Styler interface{ Render(...string) string }

// Fit pads or cuts a line to exactly width columns, so panels joined
// beside it line up.
func Fit(l string, width int) string {
	w := ansi.StringWidth(l)
	switch {
	case w > width:
		return ansi.Truncate(l, width, "")
	case w < width:
		return l + strings.Repeat(" ", width-w)
	}
	return l
}

// Wrap wraps text to width and styles each line.
func Wrap(s Styler, text string, width int) []string {
	lines := strings.Split(ansi.Wrap(text, max(width, 1), ""), "\n")
	for i, l := range lines {
		lines[i] = s.Render(l)
	}
	return lines
}

// Indent prefixes every line, in place.
func Indent(lines []string, prefix string) {
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
}

// OneLine makes s one sanitised line.
func OneLine(s string) string {
	return strings.Join(strings.Fields(Clean(s)), " ")
}

// KeyArgument picks the argument that says most about a call: the command,
// the path, the pattern; otherwise the compact JSON.
func KeyArgument(tool, args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return OneLine(args)
	}
	for _, k := range []string{"command", "path", "pattern", "goal", "query", "url"} {
		if v, ok := m[k].(string); ok && v != "" {
			return OneLine(v)
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%v", k, m[k]))
	}
	return OneLine(strings.Join(parts, " "))
}

// spinnerFrames is the spinner shown while the agent works.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Spinner is the spinner's glyph at frame; the root model counts the
// frames and every child that shows work in progress draws this one.
func Spinner(frame int) string { return spinnerFrames[frame%len(spinnerFrames)] }
