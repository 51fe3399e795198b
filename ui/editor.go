package ui

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/keys"
)

// editor is a small multi-line text editor: the prompt box and the
// dialog's reason line. (bubbles' textarea and textinput import
// github.com/atotto/clipboard, which this module does not require.)
//
// The text is kept as lines of runes with a cursor; rendering soft-wraps
// each line to the width and draws the cursor as a reversed cell.
type editor struct {
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

func newEditor(prompt string, maxRows int, multiline bool, keys keys.EditKeys) editor {
	return editor{lines: [][]rune{nil}, prompt: prompt, maxRows: maxRows, multiline: multiline, focused: true, width: 40, keys: keys}
}

// Value is the text.
func (e *editor) Value() string {
	parts := make([]string, len(e.lines))
	for i, l := range e.lines {
		parts[i] = string(l)
	}
	return strings.Join(parts, "\n")
}

// SetValue replaces the text and puts the cursor at its end.
func (e *editor) SetValue(s string) {
	e.lines = e.lines[:0]
	for _, l := range strings.Split(s, "\n") {
		e.lines = append(e.lines, []rune(l))
	}
	e.row = len(e.lines) - 1
	e.col = len(e.lines[e.row])
}

// Reset empties the editor.
func (e *editor) Reset() { e.SetValue("") }

// Line is the cursor's row; LineCount the number of rows of text.
func (e *editor) Line() int      { return e.row }
func (e *editor) LineCount() int { return len(e.lines) }

// normalizeNewlines turns CRLF and lone CR line ends into LF: terminals
// paste lines with any of the three (tmux's paste-buffer -p sends CR).
func normalizeNewlines(s string) string {
	if !strings.ContainsRune(s, '\r') {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// InsertString inserts s at the cursor (newlines, of any convention,
// split lines).
func (e *editor) InsertString(s string) {
	s = normalizeNewlines(s)
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

func (e *editor) insertRune(r rune) {
	l := e.lines[e.row]
	l = append(l[:e.col], append([]rune{r}, l[e.col:]...)...)
	e.lines[e.row] = l
	e.col++
}

func (e *editor) newline() {
	l := e.lines[e.row]
	rest := append([]rune(nil), l[e.col:]...)
	e.lines[e.row] = l[:e.col]
	e.lines = append(e.lines[:e.row+1], append([][]rune{rest}, e.lines[e.row+1:]...)...)
	e.row, e.col = e.row+1, 0
}

// Update handles a key or a paste.
func (e *editor) Update(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		text := normalizeNewlines(msg.Content)
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
func (e *editor) edit(msg tea.KeyPressMsg) bool {
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

func (e *editor) newlineIfMultiline() {
	if e.multiline {
		e.newline()
	}
}

func (e *editor) backspace() {
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

func (e *editor) deleteForward() {
	l := e.lines[e.row]
	switch {
	case e.col < len(l):
		e.lines[e.row] = append(l[:e.col], l[e.col+1:]...)
	case e.row < len(e.lines)-1:
		e.lines[e.row] = append(l, e.lines[e.row+1]...)
		e.lines = append(e.lines[:e.row+1], e.lines[e.row+2:]...)
	}
}

func (e *editor) left() {
	switch {
	case e.col > 0:
		e.col--
	case e.row > 0:
		e.row--
		e.col = len(e.lines[e.row])
	}
}

func (e *editor) right() {
	switch {
	case e.col < len(e.lines[e.row]):
		e.col++
	case e.row < len(e.lines)-1:
		e.row, e.col = e.row+1, 0
	}
}

func (e *editor) vertical(d int) {
	r := e.row + d
	if r < 0 || r >= len(e.lines) {
		return
	}
	e.row, e.col = r, min(e.col, len(e.lines[r]))
}

func (e *editor) deleteWord() {
	start := e.col
	e.wordLeft()
	if e.row < len(e.lines) {
		l := e.lines[e.row]
		if start <= len(l) && e.col <= start {
			e.lines[e.row] = append(l[:e.col], l[start:]...)
		}
	}
}

func (e *editor) wordLeft() {
	l := e.lines[e.row]
	for e.col > 0 && unicode.IsSpace(l[e.col-1]) {
		e.col--
	}
	for e.col > 0 && !unicode.IsSpace(l[e.col-1]) {
		e.col--
	}
}

func (e *editor) wordRight() {
	l := e.lines[e.row]
	for e.col < len(l) && unicode.IsSpace(l[e.col]) {
		e.col++
	}
	for e.col < len(l) && !unicode.IsSpace(l[e.col]) {
		e.col++
	}
}

// wordBeforeCursor is the text between the last space before the cursor
// (or the start of the line) and the cursor.
func (e *editor) wordBeforeCursor() string {
	l := e.lines[e.row][:e.col]
	i := len(l)
	for i > 0 && !unicode.IsSpace(l[i-1]) {
		i--
	}
	return string(l[i:])
}

// replaceBeforeCursor replaces the n runes before the cursor with s.
func (e *editor) replaceBeforeCursor(n int, s string) {
	l := e.lines[e.row]
	n = min(n, e.col)
	e.lines[e.row] = append(l[:e.col-n:e.col-n], l[e.col:]...)
	e.col -= n
	e.InsertString(s)
}
