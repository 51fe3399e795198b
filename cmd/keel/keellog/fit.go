package keellog

import (
	"bytes"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/keel-dev/keel/internal/termtext"
)

// writeTable aligns the rows fill writes (tab-separated) and writes them
// to out, sanitised; on a terminal each line is cut at its width, the cut
// marked "…": keel log's table is ~120 columns wide, and at 80 a terminal
// wrapped every row in two. A pipe or file gets the lines whole.
func writeTable(out io.Writer, fill func(tw io.Writer)) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(termtext.NewWriter(&buf), 0, 2, 2, ' ', 0)
	fill(tw)
	if err := tw.Flush(); err != nil {
		return err
	}
	width := 0
	if f, ok := out.(*os.File); ok {
		width = terminalWidth(f)
	}
	_, err := io.WriteString(out, fit(buf.String(), width))
	return err
}

// fit cuts each line of text at width runes; width 0 leaves it whole.
// The text is sanitised and the table's columns are ASCII: a rune is a
// column but for a wide character in a prompt, whose line may still wrap.
func fit(text string, width int) string {
	if width <= 1 {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if utf8.RuneCountInString(l) > width {
			lines[i] = string([]rune(l)[:width-1]) + "…"
		}
	}
	return strings.Join(lines, "\n")
}
