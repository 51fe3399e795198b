// Package textedit is a small multi-line text editor widget: the prompt
// box's text and a dialog's reason line. The text is kept as lines of
// runes with a cursor; the view soft-wraps each line to the width, draws
// the cursor as a reversed cell and chosen text (@file mentions) as chips.
// Every key it answers to is a binding of keys.EditKeys. (bubbles'
// textarea and textinput import github.com/atotto/clipboard, which this
// module does not require.)
package textedit

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/keys"
)

// Model is the editor's text, cursor and look.
type Model struct {
	lines       [][]rune
	row, col    int
	width       int
	maxRows     int // rows shown at most (the box grows up to it)
	prompt      string
	placeholder string
	focused     bool
	multiline   bool
	keys        keys.EditKeys
	chips       []string      // text drawn as chips (@file mentions)
	chipStyle   common.Styler // how chips are drawn
}

// New is an empty editor: prompt is drawn before its first row, it grows
// up to maxRows rows, and only a multiline one takes a new line (a paste's
// line ends become spaces in the others).
func New(prompt string, maxRows int, multiline bool, keys keys.EditKeys) Model {
	return Model{lines: [][]rune{nil}, prompt: prompt, maxRows: maxRows, multiline: multiline, focused: true, width: 40, keys: keys}
}

// SetWidth sets the columns the editor is drawn in.
func (e *Model) SetWidth(w int) { e.width = w }

// SetPlaceholder sets the hint shown while the editor is empty.
func (e *Model) SetPlaceholder(s string) { e.placeholder = s }

// SetChips sets the text drawn as chips, in style.
func (e *Model) SetChips(chips []string, style common.Styler) {
	e.chips, e.chipStyle = chips, style
}

// Value is the text.
func (e *Model) Value() string {
	parts := make([]string, len(e.lines))
	for i, l := range e.lines {
		parts[i] = string(l)
	}
	return strings.Join(parts, "\n")
}

// SetValue replaces the text and puts the cursor at its end.
func (e *Model) SetValue(s string) {
	e.lines = e.lines[:0]
	for _, l := range strings.Split(s, "\n") {
		e.lines = append(e.lines, []rune(l))
	}
	e.row = len(e.lines) - 1
	e.col = len(e.lines[e.row])
}

// Reset empties the editor.
func (e *Model) Reset() { e.SetValue("") }

// Line is the cursor's row.
func (e *Model) Line() int { return e.row }

// LineCount is the number of rows of text.
func (e *Model) LineCount() int { return len(e.lines) }

// NormalizeNewlines turns CRLF and lone CR line ends into LF: terminals
// paste lines with any of the three (tmux's paste-buffer -p sends CR).
func NormalizeNewlines(s string) string {
	if !strings.ContainsRune(s, '\r') {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// InsertString inserts s at the cursor (newlines, of any convention,
// split lines).
func (e *Model) InsertString(s string) {
	s = NormalizeNewlines(s)
	for i, part := range strings.Split(s, "\n") {
		if i > 0 {
			e.newline()
		}
		for _, r := range part {
			if r == '\t' {
				r = ' '
			}
			if unicode.IsPrint(r) || r == ' ' {
				e.insertRune(r)
			}
		}
	}
}

func (e *Model) insertRune(r rune) {
	l := e.lines[e.row]
	l = append(l[:e.col], append([]rune{r}, l[e.col:]...)...)
	e.lines[e.row] = l
	e.col++
}

func (e *Model) newline() {
	l := e.lines[e.row]
	rest := append([]rune(nil), l[e.col:]...)
	e.lines[e.row] = l[:e.col]
	e.lines = append(e.lines[:e.row+1], append([][]rune{rest}, e.lines[e.row+1:]...)...)
	e.row, e.col = e.row+1, 0
}

// Update handles a key or a paste.
func (e *Model) Update(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		text := NormalizeNewlines(msg.Content)
		if !e.multiline {
			text = strings.ReplaceAll(text, "\n", " ")
		}
		e.InsertString(text)
	case tea.KeyPressMsg:
		if !e.edit(msg) && msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
			e.InsertString(msg.Text)
		}
	}
}

// edit applies an editing key; it reports whether msg was one.
func (e *Model) edit(msg tea.KeyPressMsg) bool {
	k := e.keys
	for _, a := range []struct {
		b  key.Binding
		do func()
	}{
		{k.Newline, e.newlineIfMultiline},
		{k.Backspace, e.backspace},
		{k.Delete, e.deleteForward},
		{k.Left, e.left},
		{k.Right, e.right},
		{k.Up, func() { e.vertical(-1) }},
		{k.Down, func() { e.vertical(1) }},
		{k.LineStart, func() { e.col = 0 }},
		{k.LineEnd, func() { e.col = len(e.lines[e.row]) }},
		{k.KillBefore, func() { e.lines[e.row], e.col = e.lines[e.row][e.col:], 0 }},
		{k.KillAfter, func() { e.lines[e.row] = e.lines[e.row][:e.col] }},
		{k.DeleteWord, e.deleteWord},
		{k.WordLeft, e.wordLeft},
		{k.WordRight, e.wordRight},
	} {
		if key.Matches(msg, a.b) {
			a.do()
			return true
		}
	}
	return false
}

func (e *Model) newlineIfMultiline() {
	if e.multiline {
		e.newline()
	}
}

func (e *Model) backspace() {
	switch {
	case e.col > 0:
		l := e.lines[e.row]
		e.lines[e.row] = append(l[:e.col-1], l[e.col:]...)
		e.col--
	case e.row > 0:
		prev := e.lines[e.row-1]
		e.col = len(prev)
		e.lines[e.row-1] = append(prev, e.lines[e.row]...)
		e.lines = append(e.lines[:e.row], e.lines[e.row+1:]...)
		e.row--
	}
}

func (e *Model) deleteForward() {
	l := e.lines[e.row]
	switch {
	case e.col < len(l):
		e.lines[e.row] = append(l[:e.col], l[e.col+1:]...)
	case e.row < len(e.lines)-1:
		e.lines[e.row] = append(l, e.lines[e.row+1]...)
		e.lines = append(e.lines[:e.row+1], e.lines[e.row+2:]...)
	}
}

func (e *Model) left() {
	switch {
	case e.col > 0:
		e.col--
	case e.row > 0:
		e.row--
		e.col = len(e.lines[e.row])
	}
}

func (e *Model) right() {
	switch {
	case e.col < len(e.lines[e.row]):
		e.col++
	case e.row < len(e.lines)-1:
		e.row, e.col = e.row+1, 0
	}
}

func (e *Model) vertical(d int) {
	r := e.row + d
	if r < 0 || r >= len(e.lines) {
		return
	}
	e.row, e.col = r, min(e.col, len(e.lines[r]))
}

func (e *Model) deleteWord() {
	start := e.col
	e.wordLeft()
	if e.row < len(e.lines) {
		l := e.lines[e.row]
		if start <= len(l) && e.col <= start {
			e.lines[e.row] = append(l[:e.col], l[start:]...)
		}
	}
}

func (e *Model) wordLeft() {
	l := e.lines[e.row]
	for e.col > 0 && unicode.IsSpace(l[e.col-1]) {
		e.col--
	}
	for e.col > 0 && !unicode.IsSpace(l[e.col-1]) {
		e.col--
	}
}

func (e *Model) wordRight() {
	l := e.lines[e.row]
	for e.col < len(l) && unicode.IsSpace(l[e.col]) {
		e.col++
	}
	for e.col < len(l) && !unicode.IsSpace(l[e.col]) {
		e.col++
	}
}

// WordBeforeCursor is the text between the last space before the cursor
// (or the start of the line) and the cursor.
func (e *Model) WordBeforeCursor() string {
	l := e.lines[e.row][:e.col]
	i := len(l)
	for i > 0 && !unicode.IsSpace(l[i-1]) {
		i--
	}
	return string(l[i:])
}

// ReplaceBeforeCursor replaces the n runes before the cursor with s.
func (e *Model) ReplaceBeforeCursor(n int, s string) {
	l := e.lines[e.row]
	n = min(n, e.col)
	e.lines[e.row] = append(l[:e.col-n:e.col-n], l[e.col:]...)
	e.col -= n
	e.InsertString(s)
}
