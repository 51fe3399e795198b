package editor

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
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

// Item is one choice: what it inserts and a short description.
type Item struct{ Value, Desc string }

// completion is the list under the input: its items, the selected one,
// and what they complete. It owns nothing else; the input acts on a
// choice.
type completion struct {
	kind  completionKind
	items []Item
	sel   int
}

// isOpen reports whether a list shows.
func (c *completion) isOpen() bool { return c.kind != completeNone && len(c.items) > 0 }

// show replaces the list (keeping the selection in range); no items
// close it.
func (c *completion) show(kind completionKind, items []Item) {
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

func (c *completion) selected() Item { return c.items[c.sel] }

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
		labelW = max(labelW, ansi.StringWidth(it.Value))
	}
	labelW = min(labelW, max(width/2, 12))
	out := make([]string, 0, n)
	for i := top; i < top+n; i++ {
		it := c.items[i]
		mark, style := "  ", st.Status
		if i == c.sel {
			mark, style = st.Selected.Render("›")+" ", st.Accent
		}
		line := mark + style.Render(common.Fit(ansi.Truncate(it.Value, labelW, "…"), labelW))
		if it.Desc != "" {
			line += "  " + st.Dim.Render(it.Desc)
		}
		if more := len(c.items) - (top + n); i == top+n-1 && more > 0 {
			line += st.Dim.Render("  (+" + strconv.Itoa(more) + " more)")
		}
		out = append(out, ansi.Truncate(line, width, "…"))
	}
	return out
}

// Completing reports whether a list of completions shows under the box.
func (in *Model) Completing() bool { return in.popup.isOpen() }

// CompletionKey handles a key while the completion list shows: move,
// take the choice (a file's text is read in the returned command) or
// close the list. It reports whether the key was one of those.
func (in *Model) CompletionKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !in.popup.isOpen() {
		return nil, false
	}
	k := in.keys.Completion
	switch {
	case key.Matches(msg, k.Prev):
		in.popup.move(-1)
	case key.Matches(msg, k.Next):
		in.popup.move(1)
	case key.Matches(msg, k.Accept):
		return in.accept(), true
	case key.Matches(msg, k.Dismiss):
		in.popup.close()
	default:
		return nil, false
	}
	return nil, true
}

// ShowSlash lists matching /commands under the box; fewer than two close
// the list.
func (in *Model) ShowSlash(items []Item) {
	if len(items) > 1 {
		in.popup.show(completeSlash, items)
	} else {
		in.popup.close()
	}
}

// CompletionHeight is the rows the completion list takes.
func (in *Model) CompletionHeight() int { return in.popup.height() }

// CompletionRows draws the completion list for width columns.
func (in *Model) CompletionRows(width int) []string { return in.popup.rows(in.st, width) }
