package keellog

import (
	"bytes"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

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
	_, err := io.WriteString(out, fit(buf.String(), terminalWidth(out)))
	return err
}

// fit cuts each line of text at width columns; width 0 leaves it whole.
func fit(text string, width int) string {
	if width <= 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	return strings.Join(lines, "\n")
}

// terminalWidth is out's width in columns when it is a terminal, else 0.
func terminalWidth(out io.Writer) int {
	f, ok := out.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return 0
	}
	cols, _, err := term.GetSize(f.Fd())
	if err != nil {
		return 0
	}
	return cols
}
