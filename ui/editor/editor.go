package editor

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/ui/keys"
	"github.com/keel-dev/keel/ui/textedit"
	"github.com/keel-dev/keel/ui/theme"
)

// pasteCollapseLines is the size from which a paste shows as one line in
// the box; the whole text is still sent.
const pasteCollapseLines = 10

// maxInputHeight is the most rows the input box grows to.
const maxInputHeight = 6

// Model is the prompt box: a text editor with history browsing,
// collapsed pastes, @file mentions (mentions.go) and the completion list
// under it.
type Model struct {
	ta      textedit.Model
	st      theme.Styles
	keys    keys.KeyMap
	history []HistoryEntry
	hpos    int           // index into history while browsing; len(history) when not
	draft   HistoryEntry  // what was typed before browsing history
	unsaved *HistoryEntry // the prompt taken last, until it is saved
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

// New is an empty prompt box drawn with st; ws offers the files after @
// (nil turns @ completion off).
func New(st theme.Styles, km keys.KeyMap, ws Workspace) Model {
	ta := textedit.New("› ", maxInputHeight, true, km.Edit)
	ta.SetPlaceholder("Ask keel… (Enter sends, / commands, @ files, ! shell, ? help)")
	ta.SetChips(nil, st.Chip)
	return Model{ta: ta, st: st, keys: km, ws: ws}
}

// Restyle takes new styles, keeping what was typed.
func (in *Model) Restyle(st theme.Styles) {
	in.st = st
	in.syncChips()
}

// SetPlaceholder replaces the hint shown while the box is empty.
func (in *Model) SetPlaceholder(s string) { in.ta.SetPlaceholder(s) }

// SetWidth sets the columns the box is drawn in.
func (in *Model) SetWidth(w int) { in.ta.SetWidth(max(w, 4)) }

// Value is the text in the box.
func (in *Model) Value() string { return in.ta.Value() }

// Empty reports whether the box holds only blanks.
func (in *Model) Empty() bool { return strings.TrimSpace(in.ta.Value()) == "" }

// Update edits the text with a key or a paste, then follows it: a list of
// /commands closes, an @ lists the workspace's files (the returned
// command), and a prompt waiting for its files is no longer sent when
// they arrive (Enter again sends it).
func (in *Model) Update(msg tea.Msg) tea.Cmd {
	in.sendWhenRead = false
	if in.popup.kind == completeSlash {
		in.popup.close()
	}
	if p, ok := msg.(tea.PasteMsg); ok {
		if path, ok := pastedImagePath(p.Content); ok { // a dropped image file: read, then a chip
			return readPastedImage(path, p.Content)
		}
	}
	in.edit(msg)
	return in.afterEdit()
}

// edit passes a key or paste to the editor, collapsing large pastes and
// browsing history with Up/Down at the first/last line.
func (in *Model) edit(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		// A bracketed paste is one unit: its line ends, whatever the
		// terminal sent, become LF before it is counted or inserted.
		msg.Content = textedit.NormalizeNewlines(msg.Content)
		if n := pasteLines(msg.Content); n >= pasteCollapseLines {
			in.addPaste(msg.Content, n)
			return
		}
		in.ta.Update(msg)
		return
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, in.keys.HistoryPrev):
			if in.ta.Line() == 0 && in.browse(-1) {
				return
			}
		case key.Matches(msg, in.keys.HistoryNext):
			if in.ta.Line() == in.ta.LineCount()-1 && in.browse(1) {
				return
			}
		}
	}
	in.ta.Update(msg)
}

// pasteLines counts a paste's lines; the line end after the last line
// (a copied file ends with one) starts no new line.
func pasteLines(s string) int {
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

func (in *Model) addPaste(text string, lines int) {
	ph := fmt.Sprintf("[pasted %d lines]", lines)
	for i := 2; strings.Contains(in.ta.Value(), ph); i++ {
		ph = fmt.Sprintf("[pasted %d lines #%d]", lines, i)
	}
	in.pastes = append(in.pastes, paste{placeholder: ph, text: text})
	in.ta.InsertString(ph)
}

// Take empties the box and returns the prompt with pastes expanded, and
// what the box showed (for history and the transcript).
func (in *Model) Take() (prompt, shown string) {
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
	in.remember(HistoryEntry{Text: shown, Pastes: used})
	return prompt, shown
}

// Set replaces the box's text (slash completion); a list shown for the
// old text closes.
func (in *Model) Set(s string) {
	in.ta.SetValue(s)
	in.popup.close()
}

// View draws the box: the placeholder when empty, else the rows around
// the cursor.
func (in *Model) View() string { return in.ta.View(in.st.Dim) }

// Height is the rows the box takes (without the completion list).
func (in *Model) Height() int { return in.ta.Height() }

// Clear empties the box into the history, so ↑ brings it back; it is
// not saved to the file, as it was never sent.
func (in *Model) Clear() {
	e := HistoryEntry{Text: strings.TrimSpace(in.ta.Value()), Pastes: in.pastes}
	in.pastes = nil
	in.clearMentions()
	in.ta.Reset()
	in.popup.close()
	in.sendWhenRead = false
	in.remember(e)
	in.unsaved = nil
}
