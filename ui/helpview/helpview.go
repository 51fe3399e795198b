// Package helpview is the `?` overlay: every binding of the KeyMap,
// section by section (keys.KeyMap.Sections), and the slash commands the
// root model lists, in as many columns as fit, each key and word shown
// however small the screen (one wrapped column when two do not fit). It
// scrolls when it is taller than its room; any key but the scroll keys
// closes it. The Model owns only whether it is open and its scroll
// position.
package helpview

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/keys"
	"github.com/keel-dev/keel/ui/theme"
)

// Model is the help's state: open or not, and the first line shown.
type Model struct {
	open bool
	top  int // first line shown
}

// Show opens the help at its top.
func (h *Model) Show() { h.open, h.top = true, 0 }

// Open reports whether the help shows.
func (h *Model) Open() bool { return h.open }

// Key scrolls or closes the help; maxTop is the last useful first line
// and page how far pgup and pgdn go (a window less a line, so nothing is
// skipped on a small screen).
func (h *Model) Key(msg tea.KeyPressMsg, k keys.HelpKeys, maxTop, page int) {
	page = max(page, 1)
	switch {
	case key.Matches(msg, k.LineUp):
		h.scroll(-1, maxTop)
	case key.Matches(msg, k.LineDown):
		h.scroll(1, maxTop)
	case key.Matches(msg, k.PageUp):
		h.scroll(-page, maxTop)
	case key.Matches(msg, k.PageDown):
		h.scroll(page, maxTop)
	default:
		h.open = false
	}
}

func (h *Model) scroll(n, maxTop int) { h.top = max(min(h.top+n, maxTop), 0) }

// MaxTop is the last first line that still fills height rows, for total
// lines.
func MaxTop(total, height int) int { return max(total-(height-1), 0) }

// View is the help for width × at most height rows: all of it when it
// fits, else a window from top with a line saying how to scroll, as
// short as width needs.
func (h *Model) View(all []string, width, height int) []string {
	if len(all) <= height {
		return all
	}
	top := min(h.top, MaxTop(len(all), height))
	end := min(top+height-1, len(all))
	out := append([]string(nil), all[top:end]...)
	return append(out, scrollLine(top+1, end, len(all), width))
}

// scrollLine says which lines show and how to scroll, in the longest
// wording that fits width.
func scrollLine(first, last, total, width int) string {
	for _, f := range []string{
		"lines %d–%d of %d · ↑/↓ pgup/pgdn scroll · any other key closes",
		"lines %d–%d of %d · ↑↓ pgup pgdn · other keys close",
		"%d–%d/%d · ↑↓ pgup pgdn",
	} {
		if l := fmt.Sprintf(f, first, last, total); ansi.StringWidth(l) <= width {
			return l
		}
	}
	return fmt.Sprintf("%d–%d/%d", first, last, total)
}

// Entry is one line of the help: a key (or a command) and what it does.
type Entry struct{ Key, Desc string }

// helpSection is a titled group of entries.
type helpSection struct {
	title   string
	entries []Entry
}

// helpSections are the commands, then every section of the KeyMap.
func helpSections(km keys.KeyMap, commands []Entry) []helpSection {
	out := []helpSection{{"Commands (Tab completes)", commands}}
	for _, s := range km.Sections() {
		hs := helpSection{title: s.Title}
		for _, b := range s.Keys {
			hs.entries = append(hs.entries, Entry{b.Help().Key, b.Help().Desc})
		}
		out = append(out, hs)
	}
	return out
}

// Lines is the whole help for width columns: the slash commands and
// the key sections in as many columns as fit; when even two do not, one
// column with long lines wrapped, so every key and every word shows.
func Lines(st theme.Styles, km keys.KeyMap, commands []Entry, width int) []string {
	sections := helpSections(km, commands)
	blocks := func(wrap int) [][]string {
		out := make([][]string, len(sections))
		for i, s := range sections {
			out[i] = helpBlock(st, s, wrap)
		}
		return out
	}
	lines, ok := layoutColumns(blocks(0), width)
	if !ok {
		lines = layoutColumn(blocks(width))
	}
	return append(lines, st.Dim.Render("press any key to close"))
}

// helpBlock is one section: its title and a line per entry. With wrap >
// 0, a description longer than wrap columns allow continues under itself.
func helpBlock(st theme.Styles, s helpSection, wrap int) []string {
	kw := 0
	for _, e := range s.entries {
		kw = max(kw, ansi.StringWidth(e.Key))
	}
	lines := []string{st.Title.Render(s.title)}
	if wrap > 0 {
		lines = common.Wrap(st.Title, s.title, wrap)
		kw = min(kw, wrap/3) // a long key wraps too, rather than squeeze its text
	}
	for _, e := range s.entries {
		lines = append(lines, entryLines(st, e, kw, wrap)...)
	}
	return lines
}

// entryLines draws one entry: the key padded to kw, then its
// description; with wrap > 0, both wrap inside their columns.
func entryLines(st theme.Styles, e Entry, kw, wrap int) []string {
	if wrap <= 0 {
		return []string{st.Help.FullKey.Render(common.Fit(e.Key, kw)) + " " + st.Help.FullDesc.Render(e.Desc)}
	}
	keys := strings.Split(ansi.Wrap(e.Key, max(kw, 1), ""), "\n")
	descs := strings.Split(ansi.Wrap(e.Desc, max(wrap-kw-1, 1), ""), "\n")
	out := make([]string, max(len(keys), len(descs)))
	for i := range out {
		k, d := "", ""
		if i < len(keys) {
			k = keys[i]
		}
		if i < len(descs) {
			d = descs[i]
		}
		out[i] = st.Help.FullKey.Render(common.Fit(k, kw)) + " " + st.Help.FullDesc.Render(d)
	}
	return out
}

// helpGap is the room between the help's columns.
const helpGap = 3

// layoutColumns places blocks in order in the most columns (four down to
// two) that fit width, each column about the same height; ok is false
// when not even two fit.
func layoutColumns(blocks [][]string, width int) ([]string, bool) {
	for n := 4; n >= 2; n-- {
		cols := splitColumns(blocks, n)
		if len(cols) > 1 && columnsWidth(cols) <= width {
			return joinColumns(cols), true
		}
	}
	return nil, false
}

// layoutColumn is the blocks one under the other, a blank line after each.
func layoutColumn(blocks [][]string) []string {
	var out []string
	for _, b := range blocks {
		out = append(append(out, b...), "")
	}
	return out[:len(out)-1]
}

// joinColumns draws columns side by side, each as wide as its widest line.
func joinColumns(cols [][]string) []string {
	parts := make([]string, 0, 2*len(cols))
	for i, c := range cols {
		w := blockWidth(c)
		for j, l := range c {
			c[j] = common.Fit(l, w)
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
