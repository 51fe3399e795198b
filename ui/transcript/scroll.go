package transcript

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Scrolling moves the anchor (an entry and a line in it) and renders only
// the entries it passes over.

// bottomAnchor is the anchor at which the last line of the transcript is
// the last line on screen.
func (t *Model) bottomAnchor(width, height int) (int, int) {
	total := 0
	for i := len(t.entries) - 1; i >= 0; i-- {
		h := len(t.linesOf(t.entries[i], width))
		if total+h >= height {
			return i, total + h - height
		}
		total += h
	}
	return 0, 0
}

// ScrollUp moves the view n lines towards the start.
func (t *Model) ScrollUp(n, width, height int) {
	if len(t.entries) == 0 {
		return
	}
	if t.follow {
		t.top, t.topLine = t.bottomAnchor(width, height)
		t.unfollow()
	}
	t.topLine -= n
	for t.topLine < 0 && t.top > 0 {
		t.top--
		t.topLine += len(t.linesOf(t.entries[t.top], width))
	}
	t.topLine = max(t.topLine, 0)
}

// ScrollDown moves the view n lines towards the end; reaching it, the view
// follows new output again.
func (t *Model) ScrollDown(n, width, height int) {
	if t.follow {
		return
	}
	t.topLine += n
	for t.top < len(t.entries) {
		h := len(t.linesOf(t.entries[t.top], width))
		if t.topLine < h {
			break
		}
		t.topLine -= h
		t.top++
	}
	bt, bl := t.bottomAnchor(width, height)
	if t.top > bt || (t.top == bt && t.topLine >= bl) {
		t.End()
	}
}

// Home shows the start of the conversation.
func (t *Model) Home() {
	t.unfollow()
	t.top, t.topLine = 0, 0
}

// End shows the newest output and follows it.
func (t *Model) End() {
	t.follow, t.top, t.topLine = true, 0, 0
}

// SelectNext moves the selection to the next (dir 1) or previous (dir -1)
// expandable entry; the selection stops following new entries.
func (t *Model) SelectNext(dir int) {
	start := t.selected
	if start < 0 {
		start = len(t.entries)
	}
	for i := start + dir; i >= 0 && i < len(t.entries); i += dir {
		if t.entries[i].expandable() {
			t.selected = i
			t.selectAuto = i == t.lastExpandable()
			if i < t.shownFirst || i > t.shownLast { // bring it on screen
				t.unfollow()
				t.top, t.topLine = i, 0
			}
			return
		}
	}
}

func (t *Model) lastExpandable() int {
	for i := len(t.entries) - 1; i >= 0; i-- {
		if t.entries[i].expandable() {
			return i
		}
	}
	return -1
}

// ToggleSelected expands or collapses the selected entry.
func (t *Model) ToggleSelected() bool {
	if t.selected < 0 || t.selected >= len(t.entries) {
		return false
	}
	e := t.entries[t.selected]
	e.expanded = !e.expanded
	e.touch()
	return true
}

// unfollow stops following new output; what arrives from now on, until
// the view is back at the bottom, is counted as new below it.
func (t *Model) unfollow() {
	if t.follow {
		t.scrolledAt, t.grewBelow = len(t.entries), false
	}
	t.follow = false
}

// noteBelow notes that e, changed while the view does not follow, is
// below the screen: its new content is announced too.
func (t *Model) noteBelow(e *Entry) {
	if t.follow {
		return
	}
	for i := len(t.entries) - 1; i > t.shownLast && i >= 0; i-- {
		if t.entries[i] == e {
			t.grewBelow = true
			return
		}
	}
}

// newBelow is how many entries arrived since the view stopped following
// that are below the screen (as the last view drew it).
func (t *Model) newBelow() int {
	if t.follow {
		return 0
	}
	return max(len(t.entries)-max(t.scrolledAt, t.shownLast+1), 0)
}

// newBelow is the line that says n entries arrived below the screen.
func (r *renderer) newBelow(n, width int) string {
	what := "message"
	if n != 1 {
		what += "s"
	}
	text := fmt.Sprintf("↓ %d new %s below · end or pgdn to see", n, what)
	if n == 0 { // only entries already there grew
		text = "↓ new output below · end or pgdn to see"
	}
	return strings.Repeat(" ", gutter) + r.st.Accent.Bold(true).Render(ansi.Truncate(text, width-gutter, "…"))
}
