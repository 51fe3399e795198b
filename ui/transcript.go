package ui

import (
	"strings"

	"github.com/keel-dev/keel/ui/common"
)

// gutter is the width of the column left of every entry, where the
// selection marker goes.
const gutter = 2

// transcript is the conversation: entries, their cached rendering, the
// scroll position and the selected (expandable) entry.
//
// Scrolling is anchored to an entry rather than to a global line number, so
// only the entries on screen are ever rendered: a 10,000-message session
// costs no more to draw than a short one.
type transcript struct {
	entries []*entry
	r       *renderer

	follow     bool // stick to the bottom as entries arrive
	top        int  // index of the entry at the top of the viewport (when !follow)
	topLine    int  // first line of entries[top] on screen
	selected   int  // index of the selected entry, -1 for none
	selectAuto bool // the selection follows the newest expandable entry

	shownFirst, shownLast int  // entries on screen at the last view
	scrolledAt            int  // len(entries) when the view stopped following: later ones are new
	grewBelow             bool // an entry below the screen changed since (an answer streamed, a call ended)

	live liveRound // the round that is streaming (transcript_live.go)
}

func newTranscript(r *renderer) *transcript {
	return &transcript{r: r, follow: true, selected: -1, selectAuto: true,
		live: liveRound{tools: map[string]*entry{}, cards: map[int]*entry{}}}
}

// add appends an entry and returns it.
func (t *transcript) add(e *entry) *entry {
	t.entries = append(t.entries, e)
	if t.selectAuto && e.expandable() {
		t.selected = len(t.entries) - 1
	}
	return e
}

// changed tells the transcript e now shows something else (it may have
// become expandable).
func (t *transcript) changed(e *entry) {
	e.touch()
	t.noteBelow(e)
	if t.selectAuto && e.expandable() {
		for i := len(t.entries) - 1; i >= 0 && i > t.selected; i-- {
			if t.entries[i] == e {
				t.selected = i
				break
			}
		}
	}
}

// remove drops e (a partial answer being retried).
func (t *transcript) remove(e *entry) {
	for i, x := range t.entries {
		if x != e {
			continue
		}
		t.entries = append(t.entries[:i], t.entries[i+1:]...)
		if t.selected >= i {
			t.selected--
		}
		if t.scrolledAt > i {
			t.scrolledAt--
		}
		if t.top > i || (t.top == i && t.top >= len(t.entries)) {
			t.top = max(t.top-1, 0)
		}
		return
	}
}

// replaceRange puts fresh in place of entries[start:end] (a resumed
// session's last rounds, once its whole record is loaded). Positions at or
// after start move with the entries, so the screen does not jump: the
// tail's entries are the last of fresh.
func (t *transcript) replaceRange(start, end int, fresh []*entry) {
	if start < 0 || start > end || end > len(t.entries) {
		return
	}
	entries := make([]*entry, 0, len(t.entries)-(end-start)+len(fresh))
	entries = append(append(append(entries, t.entries[:start]...), fresh...), t.entries[end:]...)
	t.entries = entries
	delta := len(fresh) - (end - start)
	for _, i := range []*int{&t.top, &t.selected, &t.scrolledAt, &t.shownFirst, &t.shownLast} {
		if *i >= start {
			*i += delta
		}
	}
}

// clear drops every entry (the session's history is untouched).
func (t *transcript) clear() {
	t.entries = nil
	t.follow, t.top, t.topLine = true, 0, 0
	t.selected, t.selectAuto = -1, true
}

// linesOf returns e's lines for width, from the cache when it is current.
func (t *transcript) linesOf(e *entry, width int) []string {
	c := &e.cache
	if c.valid && c.width == width && c.version == e.version && !e.dynamic() {
		return c.lines
	}
	lines := t.r.lines(e, width-gutter)
	for i, l := range lines {
		lines[i] = common.Fit(l, width-gutter) // padded once here, not per frame
	}
	*c = renderCache{width: width, version: e.version, valid: true, lines: lines}
	return lines
}

// invalidate drops every cached rendering (styles changed).
func (t *transcript) invalidate() {
	for _, e := range t.entries {
		e.cache.valid = false
		e.stream = stream{}
	}
}

// view returns exactly height lines of the transcript for width columns.
func (t *transcript) view(width, height int) []string {
	if height <= 0 {
		return nil
	}
	var out []string
	t.shownFirst, t.shownLast = len(t.entries), -1
	if !t.follow {
		out = t.viewFrom(width, height)
	}
	if out == nil {
		out = t.viewBottom(width, height)
	}
	for len(out) < height {
		out = append(out, "")
	}
	if n := t.newBelow(); n > 0 || (!t.follow && t.grewBelow) { // over the last line: what arrived below is not missed
		out[height-1] = common.Fit(t.r.newBelow(n, width), width)
	}
	return out
}

// viewFrom renders forward from the anchor; nil when the entries below the
// anchor do not fill the screen (the view then sticks to the bottom).
func (t *transcript) viewFrom(width, height int) []string {
	out := make([]string, 0, height)
	line := t.topLine
	for i := t.top; i < len(t.entries) && len(out) < height; i++ {
		t.shown(i)
		lines := t.linesOf(t.entries[i], width)
		for j := min(line, len(lines)); j < len(lines) && len(out) < height; j++ {
			out = append(out, t.withGutter(i, lines[j], len(lines)-j))
		}
		line = 0
	}
	if len(out) < height {
		t.follow = true
		return nil
	}
	return out
}

func (t *transcript) shown(i int) {
	t.shownFirst, t.shownLast = min(t.shownFirst, i), max(t.shownLast, i)
}

// viewBottom renders the last height lines, walking back from the end.
func (t *transcript) viewBottom(width, height int) []string {
	var chunks [][]string
	n := 0
	i := len(t.entries) - 1
	for ; i >= 0 && n < height; i-- {
		t.shown(i)
		lines := t.linesOf(t.entries[i], width)
		g := make([]string, len(lines))
		for j, l := range lines {
			g[j] = t.withGutter(i, l, len(lines)-j)
		}
		chunks = append(chunks, g)
		n += len(lines)
	}
	out := make([]string, 0, n)
	for j := len(chunks) - 1; j >= 0; j-- {
		out = append(out, chunks[j]...)
	}
	if len(out) > height {
		out = out[len(out)-height:]
	}
	return out
}

// withGutter prefixes a line of entry i; left is how many lines of the
// entry remain from this one (the last is the blank gap, left unmarked).
func (t *transcript) withGutter(i int, line string, left int) string {
	if i == t.selected && left > 1 {
		return t.r.st.Selected.Render("▎") + " " + line
	}
	return strings.Repeat(" ", gutter) + line
}

// lastAnswer is the text of the newest assistant answer, for `y`, as it
// is shown: sanitised, so the clipboard holds no escape sequence (one
// ending bracketed paste would run the rest of a paste in a shell).
func (t *transcript) lastAnswer() string {
	for i := len(t.entries) - 1; i >= 0; i-- {
		if e := t.entries[i]; e.kind == kindAssistant && strings.TrimSpace(e.text) != "" {
			return common.Clean(e.text)
		}
	}
	return ""
}
