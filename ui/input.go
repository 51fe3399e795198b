package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/keys"
	"github.com/keel-dev/keel/ui/theme"
)

// pasteCollapseLines is the size from which a paste shows as one line in
// the box; the whole text is still sent.
const pasteCollapseLines = 10

// maxInputHeight is the most rows the input box grows to.
const maxInputHeight = 6

// input is the prompt box: an editor with history browsing, collapsed
// pastes, @file mentions (input_mention.go) and the completion list
// under it.
type input struct {
	ta      editor
	st      theme.Styles
	keys    keys.KeyMap
	history []historyEntry
	hpos    int           // index into history while browsing; len(history) when not
	draft   historyEntry  // what was typed before browsing history
	unsaved *historyEntry // the prompt taken last, until it is saved
	pastes  []paste

	popup     completion // the list under the input
	ws        Workspace  // nil: @ completes nothing
	files     fileIndex
	mentions  []mention
	inMention bool // the cursor was in an @word after the last edit

	sendWhenRead bool // Enter came while a mention was being read
}

// paste is a large paste: its placeholder in the box and its full text.
type paste struct{ placeholder, text string }

func newInput(st theme.Styles, keys keys.KeyMap, ws Workspace) input {
	ta := newEditor("› ", maxInputHeight, true, keys.Edit)
	ta.placeholder = "Ask keel… (Enter sends, / commands, @ files, ! shell, ? help)"
	ta.chipStyle = st.Chip
	return input{ta: ta, st: st, keys: keys, ws: ws}
}

// restyle takes new styles, keeping what was typed.
func (in *input) restyle(st theme.Styles) {
	in.st = st
	in.ta.chipStyle = st.Chip
}

// setPlaceholder replaces the hint shown while the box is empty.
func (in *input) setPlaceholder(s string) { in.ta.placeholder = s }

func (in *input) setWidth(w int) { in.ta.width = max(w, 4) }

func (in *input) value() string { return in.ta.Value() }

func (in *input) empty() bool { return strings.TrimSpace(in.ta.Value()) == "" }

// update passes a key or paste to the editor, collapsing large pastes and
// browsing history with Up/Down at the first/last line.
func (in *input) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		// A bracketed paste is one unit: its line ends, whatever the
		// terminal sent, become LF before it is counted or inserted.
		msg.Content = normalizeNewlines(msg.Content)
		if n := pasteLines(msg.Content); n >= pasteCollapseLines {
			in.addPaste(msg.Content, n)
			return nil
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, in.keys.HistoryPrev):
			if in.ta.Line() == 0 && in.browse(-1) {
				return nil
			}
		case key.Matches(msg, in.keys.HistoryNext):
			if in.ta.Line() == in.ta.LineCount()-1 && in.browse(1) {
				return nil
			}
		}
	}
	in.ta.Update(msg)
	return nil
}

// pasteLines counts a paste's lines; the line end after the last line
// (a copied file ends with one) starts no new line.
func pasteLines(s string) int {
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

func (in *input) addPaste(text string, lines int) {
	ph := fmt.Sprintf("[pasted %d lines]", lines)
	for i := 2; strings.Contains(in.ta.Value(), ph); i++ {
		ph = fmt.Sprintf("[pasted %d lines #%d]", lines, i)
	}
	in.pastes = append(in.pastes, paste{placeholder: ph, text: text})
	in.ta.InsertString(ph)
}

// take empties the box and returns the prompt with pastes expanded, and
// what the box showed (for history and the transcript).
func (in *input) take() (prompt, shown string) {
	shown = strings.TrimSpace(in.ta.Value())
	prompt = shown
	var used []paste
	for _, p := range in.pastes {
		if strings.Contains(prompt, p.placeholder) {
			prompt = strings.Replace(prompt, p.placeholder, p.text, 1)
			used = append(used, p)
		}
	}
	in.pastes = nil
	in.clearMentions()
	in.ta.Reset()
	in.remember(historyEntry{Text: shown, Pastes: used})
	return prompt, shown
}

// set replaces the box's text (slash completion); a list shown for the
// old text closes.
func (in *input) set(s string) {
	in.ta.SetValue(s)
	in.popup.close()
}

func (in *input) view() string { return in.ta.View(in.st.Dim) }

func (in *input) height() int { return in.ta.Height() }

// showSlash lists matching commands under the input; fewer than two
// close the list.
func (in *input) showSlash(items []completionItem) {
	if len(items) > 1 {
		in.popup.show(completeSlash, items)
	} else {
		in.popup.close()
	}
}

// hideCompletions closes the list under the input.
func (in *input) hideCompletions() { in.popup.close() }
