package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/theme"
)

// pager shows a permission question's whole change, wrapped, a window of
// it at a time, until the user goes back to the question (v in the
// dialog; the question's answer keys do nothing here).
type pager struct {
	title string
	diff  string
	top   int // first line shown
	page  int // lines shown at the last view, for pgup and pgdn
	total int // lines at the last view's width
}

// previewLines is how many lines of a change the question itself shows;
// the pager shows the rest.
const previewLines = common.MaxCollapsedDiff

// openPager opens the whole change of the question r, if it has one.
func (d *Model) openPager(r *Request) {
	if prev := editPreview(r.perm.Tool, r.perm.Args); prev != "" {
		d.pager = &pager{title: r.perm.Tool + " " + r.perm.Summary, diff: prev}
	}
}

// pagerKey scrolls the change or goes back to the question.
func (d *Model) pagerKey(msg tea.KeyPressMsg) (string, tea.Cmd) {
	p, k := d.pager, d.keys
	switch {
	case key.Matches(msg, k.PagerBack):
		d.pager = nil
	case key.Matches(msg, k.PagerUp):
		p.top--
	case key.Matches(msg, k.PagerDown):
		p.top++
	case key.Matches(msg, k.PagerPgUp):
		p.top -= max(p.page-1, 1)
	case key.Matches(msg, k.PagerPgDown):
		p.top += max(p.page-1, 1)
	}
	if d.pager != nil {
		p.top = max(min(p.top, p.total-p.page), 0)
	}
	return "", nil
}

// pagerLines is the pager for a box of width × height (borders included).
func (d *Model) pagerLines(st theme.Styles, width, height int) []string {
	p := d.pager
	body := common.WrappedDiff(st, p.diff, width)
	hints := d.hints(st, width, d.keys.PagerUp, d.keys.PagerDown, d.keys.PagerPgDown, d.keys.PagerBack)
	p.page, p.total = max(height-3-strings.Count(hints, "\n")-1, 1), len(body) // the borders, the title and the keys' lines
	p.top = max(min(p.top, p.total-p.page), 0)
	end := min(p.top+p.page, p.total)
	head := fmt.Sprintf("%s — the whole change, lines %d-%d of %d", strings.TrimSpace(p.title), p.top+1, end, p.total)
	lines := []string{st.Title.Render(ansi.Truncate(common.OneLine(head), width, "…"))}
	lines = append(lines, body[p.top:end]...)
	for len(lines) < p.page+1 {
		lines = append(lines, "")
	}
	return append(lines, hints)
}
