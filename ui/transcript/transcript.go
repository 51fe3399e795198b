package transcript

import (
	"strings"

	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/markdown"
	"github.com/keel-dev/keel/ui/theme"
)

// gutter is the width of the column left of every entry, where the
// selection marker goes.
const gutter = 2

// Model is the conversation: entries, their cached rendering, the scroll
// position, the selected (expandable) entry, and the round that is
// streaming.
//
// Scrolling is anchored to an entry rather than to a global line number, so
// only the entries on screen are ever rendered: a 10,000-message session
// costs no more to draw than a short one.
type Model struct {
	entries []*Entry
	r       *renderer

	follow     bool // stick to the bottom as entries arrive
	top        int  // index of the entry at the top of the viewport (when !follow)
	topLine    int  // first line of entries[top] on screen
	selected   int  // index of the selected entry, -1 for none
	selectAuto bool // the selection follows the newest expandable entry

	shownFirst, shownLast int  // entries on screen at the last view
	scrolledAt            int  // len(entries) when the view stopped following: later ones are new
	grewBelow             bool // an entry below the screen changed since (an answer streamed, a call ended)

	live  liveRound // the round that is streaming (live.go)
	clock clock     // how long running calls have run (elapsed.go)
}

// New is an empty transcript drawn with st.
func New(st theme.Styles) *Model { return newModel(newRenderer(st)) }

// newModel is a transcript drawn by r; nil r makes one that only builds
// entries (Replay).
func newModel(r *renderer) *Model {
	return &Model{r: r, follow: true, selected: -1, selectAuto: true,
		live: liveRound{tools: map[string]*Entry{}, cards: map[int]*Entry{}}}
}

// Restyle draws with new styles from now on: every cached rendering is
// dropped (the next View redraws what is visible).
func (t *Model) Restyle(st theme.Styles) {
	t.r = newRenderer(st)
	t.invalidate()
}

// Len is the number of entries.
func (t *Model) Len() int { return len(t.entries) }

// Following reports whether the view sticks to the newest output.
func (t *Model) Following() bool { return t.follow }

// add appends an entry and returns it.
func (t *Model) add(e *Entry) *Entry {
	t.entries = append(t.entries, e)
	if t.selectAuto && e.expandable() {
		t.selected = len(t.entries) - 1
	}
	return e
}

// changed tells the transcript e now shows something else (it may have
// become expandable).
func (t *Model) changed(e *Entry) {
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

// Remove drops e (a partial answer being retried).
func (t *Model) Remove(e *Entry) {
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

// ReplaceRange puts fresh in place of entries[start:end] (a resumed
// session's last rounds, once its whole record is loaded). Positions at or
// after start move with the entries, so the screen does not jump: the
// tail's entries are the last of fresh.
func (t *Model) ReplaceRange(start, end int, fresh []*Entry) {
	if start < 0 || start > end || end > len(t.entries) {
		return
	}
	entries := make([]*Entry, 0, len(t.entries)-(end-start)+len(fresh))
	entries = append(append(append(entries, t.entries[:start]...), fresh...), t.entries[end:]...)
	t.entries = entries
	delta := len(fresh) - (end - start)
	for _, i := range []*int{&t.top, &t.selected, &t.scrolledAt, &t.shownFirst, &t.shownLast} {
		if *i >= start {
			*i += delta
		}
	}
}

// Clear drops every entry (the session's history is untouched).
func (t *Model) Clear() {
	t.entries = nil
	t.follow, t.top, t.topLine = true, 0, 0
	t.selected, t.selectAuto = -1, true
}

// linesOf returns e's lines for width, from the cache when it is current.
func (t *Model) linesOf(e *Entry, width int) []string {
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
func (t *Model) invalidate() {
	for _, e := range t.entries {
		e.cache.valid = false
		e.stream = markdown.Stream{}
	}
}

// View returns exactly height lines of the transcript for width columns;
// spin is the spinner's glyph for the calls still running.
func (t *Model) View(width, height int, spin string) []string {
	if height <= 0 {
		return nil
	}
	t.r.spin, t.r.now = spin, t.clock.now
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
func (t *Model) viewFrom(width, height int) []string {
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

func (t *Model) shown(i int) {
	t.shownFirst, t.shownLast = min(t.shownFirst, i), max(t.shownLast, i)
}

// viewBottom renders the last height lines, walking back from the end.
func (t *Model) viewBottom(width, height int) []string {
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
func (t *Model) withGutter(i int, line string, left int) string {
	if i == t.selected && left > 1 {
		return t.r.st.Selected.Render("▎") + " " + line
	}
	return strings.Repeat(" ", gutter) + line
}

// LastAnswer is the text of the newest assistant answer, for `y`, as it
// is shown: sanitised, so the clipboard holds no escape sequence (one
// ending bracketed paste would run the rest of a paste in a shell).
func (t *Model) LastAnswer() string {
	for i := len(t.entries) - 1; i >= 0; i-- {
		if e := t.entries[i]; e.kind == kindAssistant && strings.TrimSpace(e.text) != "" {
			return common.Clean(e.text)
		}
	}
	return ""
}
