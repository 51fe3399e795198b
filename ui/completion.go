package ui

import (
	"strconv"

	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/theme"
)

// maxCompletionRows is how many completions show under the input.
const maxCompletionRows = 6

// completionKind says what a completion list completes.
type completionKind int

const (
	completeNone  completionKind = iota
	completeSlash                // a /command (after Tab)
	completeFile                 // an @file mention (while typing it)
)

// completionItem is one choice: what it inserts and a short description.
type completionItem struct{ value, desc string }

// completion is the list under the input: its items, the selected one,
// and what they complete. It owns nothing else; the input acts on a
// choice.
type completion struct {
	kind  completionKind
	items []completionItem
	sel   int
}

// isOpen reports whether a list shows.
func (c *completion) isOpen() bool { return c.kind != completeNone && len(c.items) > 0 }

// show replaces the list (keeping the selection in range); no items
// close it.
func (c *completion) show(kind completionKind, items []completionItem) {
	if len(items) == 0 {
		c.close()
		return
	}
	c.kind, c.items = kind, items
	c.sel = min(c.sel, len(items)-1)
}

func (c *completion) close() { *c = completion{} }

// move selects the previous (-1) or next (1) item, wrapping around.
func (c *completion) move(d int) {
	if n := len(c.items); n > 0 {
		c.sel = (c.sel + d + n) % n
	}
}

func (c *completion) selected() completionItem { return c.items[c.sel] }

// height is the rows the list takes.
func (c *completion) height() int {
	if !c.isOpen() {
		return 0
	}
	return min(len(c.items), maxCompletionRows)
}

// rows renders the list for width columns: the window of items around the
// selection, the selected one marked.
func (c *completion) rows(st theme.Styles, width int) []string {
	n := c.height()
	top := min(max(c.sel-n+1, 0), len(c.items)-n)
	labelW := 0
	for _, it := range c.items[top : top+n] {
		labelW = max(labelW, ansi.StringWidth(it.value))
	}
	labelW = min(labelW, max(width/2, 12))
	out := make([]string, 0, n)
	for i := top; i < top+n; i++ {
		it := c.items[i]
		mark, style := "  ", st.Status
		if i == c.sel {
			mark, style = st.Selected.Render("›")+" ", st.Accent
		}
		line := mark + style.Render(common.Fit(ansi.Truncate(it.value, labelW, "…"), labelW))
		if it.desc != "" {
			line += "  " + st.Dim.Render(it.desc)
		}
		if more := len(c.items) - (top + n); i == top+n-1 && more > 0 {
			line += st.Dim.Render("  (+" + strconv.Itoa(more) + " more)")
		}
		out = append(out, ansi.Truncate(line, width, "…"))
	}
	return out
}
