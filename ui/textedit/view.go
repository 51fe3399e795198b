package textedit

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/ui/common"
)

// rows soft-wraps the text to the width (after the prompt) and returns the
// rows and the row the cursor is on.
func (e *Model) rows() ([]string, int) {
	w := max(e.width-ansi.StringWidth(e.prompt), 2)
	var rows []string
	cursorRow := 0
	for i, l := range e.lines {
		runes := l
		if i == e.row && e.focused {
			runes = append(append([]rune(nil), l...), ' ') // room for the cursor at the end
		}
		first := len(rows)
		mask := e.chipMask(l)
		for off := 0; ; off += w {
			end := min(off+w, len(runes))
			rows = append(rows, e.draw(i, runes[off:end], first == len(rows), off, mask))
			if end >= len(runes) {
				break
			}
		}
		if i == e.row {
			cursorRow = first + min(e.col/w, len(rows)-first-1)
		}
	}
	return rows, cursorRow
}

// draw renders one wrapped row of line i that starts at rune offset off,
// with the cursor reversed when it falls in this row and chips styled
// (chip marks line i's chip runes).
func (e *Model) draw(i int, runes []rune, firstRow bool, off int, chip []bool) string {
	var b strings.Builder
	if firstRow && i == 0 {
		b.WriteString(e.prompt)
	} else {
		b.WriteString(strings.Repeat(" ", ansi.StringWidth(e.prompt)))
	}
	var run []rune // chip runes waiting to be drawn together
	flush := func() {
		if len(run) > 0 {
			b.WriteString(e.chipStyle.Render(string(run)))
			run = run[:0]
		}
	}
	for j, r := range runes {
		switch {
		case e.focused && i == e.row && off+j == e.col:
			flush()
			b.WriteString(ansi.SGR(ansi.AttrReverse) + string(r) + ansi.SGR(ansi.AttrNoReverse))
		case off+j < len(chip) && chip[off+j]:
			run = append(run, r)
		default:
			flush()
			b.WriteRune(r)
		}
	}
	flush()
	return b.String()
}

// chipMask marks the runes of line that belong to a chip.
func (e *Model) chipMask(line []rune) []bool {
	if len(e.chips) == 0 || e.chipStyle == nil {
		return nil
	}
	mask := make([]bool, len(line))
	s := string(line)
	for _, c := range e.chips {
		for from := 0; ; {
			k := strings.Index(s[from:], c)
			if k < 0 {
				break
			}
			start := len([]rune(s[:from+k]))
			for j := range len([]rune(c)) {
				mask[start+j] = true
			}
			from += k + len(c)
		}
	}
	return mask
}

// Height is the rows the editor shows.
func (e *Model) Height() int {
	rows, _ := e.rows()
	return min(max(len(rows), 1), e.maxRows)
}

// View renders the editor: the placeholder when empty, otherwise the rows
// around the cursor.
func (e *Model) View(placeholderStyle common.Styler) string {
	if e.Value() == "" && e.placeholder != "" {
		cur := ""
		if e.focused {
			cur = ansi.SGR(ansi.AttrReverse) + " " + ansi.SGR(ansi.AttrNoReverse)
		}
		ph := ansi.Truncate(e.placeholder, max(e.width-ansi.StringWidth(e.prompt)-1, 1), "…")
		return e.prompt + cur + placeholderStyle.Render(ph)
	}
	rows, cur := e.rows()
	if len(rows) > e.maxRows {
		start := min(max(cur-e.maxRows+1, 0), len(rows)-e.maxRows)
		rows = rows[start : start+e.maxRows]
	}
	return strings.Join(rows, "\n")
}
