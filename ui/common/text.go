package common

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// Wrap wraps text to width and styles each line. It breaks lines at
// spaces only, never at a hyphen (ansi.Wrap always may): a path or a
// command like keel-demo-1/greet stays whole unless it is wider than the
// line.
func Wrap(s Styler, text string, width int) []string {
	lines := strings.Split(WrapText(text, width), "\n")
	for i, l := range lines {
		lines[i] = s.Render(l)
	}
	return lines
}

// nbHyphen stands in for "-" while wrapping: ansi.Wrap breaks after a
// hyphen but not after a non-breaking one, of the same width.
const nbHyphen = "\u2011"

// WrapText wraps text to width at spaces (Wrap without the styles).
func WrapText(text string, width int) string {
	if !strings.Contains(text, "-") {
		return ansi.Wrap(text, max(width, 1), "")
	}
	wrapped := ansi.Wrap(strings.ReplaceAll(text, "-", nbHyphen), max(width, 1), "")
	return strings.ReplaceAll(wrapped, nbHyphen, "-")
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
	if len(m) == 0 { // list_dir with its defaults: "list_dir", not "list_dir {}"
		return ""
	}
	if tool == "reflect" { // its card shows the reflection: the line says only what keel does with it
		if adj, ok := m["adjustment"].(string); ok {
			conf, _ := m["confidence"].(float64)
			return OneLine(fmt.Sprintf("%s · confidence %.2f", adj, conf))
		}
	}
	for _, k := range []string{"command", "path", "pattern", "goal", "query", "url", "description"} {
		if v, ok := m[k].(string); ok && v != "" {
			return OneLine(v)
		}
	}
	var b bytes.Buffer // keys sorted, no spaces: {"a":1,"b":["x<y"]}
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(m) != nil {
		return OneLine(args)
	}
	return OneLine(b.String())
}

// spinnerFrames is the spinner shown while the agent works.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Spinner is the spinner's glyph at frame; the root model counts the
// frames and every child that shows work in progress draws this one.
func Spinner(frame int) string { return spinnerFrames[frame%len(spinnerFrames)] }
