package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// helpView is the `?` overlay: every binding of the KeyMap, section by
// section, and the slash commands. It scrolls when it is taller than the
// room it has; any key but the scroll keys closes it.
type helpView struct {
	open bool
	top  int // first line shown
}

// show opens the help at its top.
func (h *helpView) show() { h.open, h.top = true, 0 }

// helpPage is how far pgup and pgdn scroll the help.
const helpPage = 10

// key scrolls or closes the help; maxTop is the last useful first line.
func (h *helpView) key(msg tea.KeyPressMsg, k HelpKeys, maxTop int) {
	switch {
	case key.Matches(msg, k.LineUp):
		h.scroll(-1, maxTop)
	case key.Matches(msg, k.LineDown):
		h.scroll(1, maxTop)
	case key.Matches(msg, k.PageUp):
		h.scroll(-helpPage, maxTop)
	case key.Matches(msg, k.PageDown):
		h.scroll(helpPage, maxTop)
	default:
		h.open = false
	}
}

func (h *helpView) scroll(n, maxTop int) { h.top = max(min(h.top+n, maxTop), 0) }

// maxTop is the last first line that still fills height rows.
func helpMaxTop(total, height int) int { return max(total-(height-1), 0) }

// view is the help for width × at most height rows: all of it when it
// fits, else a window from top with a line saying how to scroll.
func (h *helpView) view(all []string, height int) []string {
	if len(all) <= height {
		return all
	}
	top := min(h.top, helpMaxTop(len(all), height))
	end := min(top+height-1, len(all))
	out := append([]string(nil), all[top:end]...)
	return append(out, fmt.Sprintf("lines %d–%d of %d · ↑/↓ pgup/pgdn scroll · any other key closes", top+1, end, len(all)))
}

// helpLines is the whole help for width columns: the slash commands and
// the key sections, laid out in as many columns as fit.
func helpLines(st Styles, km KeyMap, commands []string, width int) []string {
	blocks := [][]string{append([]string{st.Title.Render("Commands (Tab completes)")}, commands...)}
	for _, s := range km.sections() {
		blocks = append(blocks, helpBlock(st, s))
	}
	lines := layoutBlocks(blocks, width)
	return append(lines, st.Dim.Render("press any key to close"))
}

// helpBlock is one section: its title and a line per binding.
func helpBlock(st Styles, s keySection) []string {
	kw := 0
	for _, b := range s.keys {
		kw = max(kw, ansi.StringWidth(b.Help().Key))
	}
	lines := []string{st.Title.Render(s.title)}
	for _, b := range s.keys {
		h := b.Help()
		lines = append(lines, st.Help.FullKey.Render(fitLine(h.Key, kw))+" "+st.Help.FullDesc.Render(h.Desc))
	}
	return lines
}

// helpGap is the room between the help's columns.
const helpGap = 3

// layoutBlocks places blocks in order in the most columns (up to four)
// that fit width, each column about the same height; lines wider than
// width are cut.
func layoutBlocks(blocks [][]string, width int) []string {
	var cols [][]string
	for n := 4; n >= 1; n-- {
		cols = splitColumns(blocks, n)
		if n == 1 || columnsWidth(cols) <= width {
			break
		}
	}
	parts := make([]string, 0, 2*len(cols))
	for i, c := range cols {
		w := min(blockWidth(c), width)
		for j, l := range c {
			c[j] = fitLine(l, w)
		}
		if i > 0 {
			parts = append(parts, strings.Repeat(" ", helpGap))
		}
		parts = append(parts, strings.Join(c, "\n"))
	}
	joined := lipgloss.JoinHorizontal(lipgloss.Top, parts...)
	return strings.Split(strings.TrimRight(joined, " \n"), "\n")
}

// splitColumns deals blocks, in order, into at most n columns, as even
// in height as it can; each block is followed by a blank line.
func splitColumns(blocks [][]string, n int) [][]string {
	total, tallest := 0, 0
	for _, b := range blocks {
		total += len(b) + 1
		tallest = max(tallest, len(b)+1)
	}
	for capacity := tallest; ; capacity++ {
		if cols := packColumns(blocks, capacity); len(cols) <= n || capacity >= total {
			return cols
		}
	}
}

// packColumns fills columns of at most capacity lines, in order.
func packColumns(blocks [][]string, capacity int) [][]string {
	var cols [][]string
	var cur []string
	for _, b := range blocks {
		if len(cur) > 0 && len(cur)+len(b)+1 > capacity {
			cols, cur = append(cols, cur), nil
		}
		cur = append(append(cur, b...), "")
	}
	return append(cols, cur)
}

func columnsWidth(cols [][]string) int {
	w := helpGap * (len(cols) - 1)
	for _, c := range cols {
		w += blockWidth(c)
	}
	return w
}

func blockWidth(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}
