package ui

import "strings"

// The input's history: ↑ on the first line and ↓ on the last browse the
// prompts sent, this launch's after those read from the workspace's
// history file (prompthistory.go). An entry keeps its pastes, so a
// recalled "[pasted 12 lines]" still sends the 12 lines.

// browse moves through the history; it reports whether it moved.
func (in *input) browse(dir int) bool {
	if len(in.history) == 0 {
		return false
	}
	if in.hpos == len(in.history) && dir < 0 {
		in.draft = historyEntry{Text: in.ta.Value(), Pastes: in.pastes}
	}
	next := in.hpos + dir
	if next < 0 || next > len(in.history) {
		return false
	}
	in.hpos = next
	e := in.draft
	if next < len(in.history) {
		e = in.history[next]
	}
	in.ta.SetValue(e.Text)
	in.pastes = append([]paste(nil), e.Pastes...)
	return true
}

// remember adds a sent prompt to the history (not a repeat of the last
// one) and keeps it to be saved; browsing starts again from the end.
func (in *input) remember(e historyEntry) {
	if e.Text != "" && (len(in.history) == 0 || in.history[len(in.history)-1].Text != e.Text) {
		in.history = append(in.history, e)
		in.unsaved = &e
	}
	if len(in.history) > maxHistory {
		in.history = append([]historyEntry(nil), in.history[len(in.history)-maxHistory:]...)
	}
	in.hpos = len(in.history)
	in.draft = historyEntry{}
}

// takeUnsaved returns the prompt taken last if it is not saved yet.
func (in *input) takeUnsaved() *historyEntry {
	e := in.unsaved
	in.unsaved = nil
	return e
}

// loadHistory puts the prompts of earlier launches before this one's;
// a browse in progress keeps its place.
func (in *input) loadHistory(earlier []historyEntry) {
	browsing := in.hpos < len(in.history)
	in.history = append(append([]historyEntry(nil), earlier...), in.history...)
	if len(in.history) > maxHistory {
		cut := len(in.history) - maxHistory
		in.history = in.history[cut:]
		in.hpos -= cut
	}
	if browsing {
		in.hpos = max(in.hpos+len(earlier), 0)
	} else {
		in.hpos = len(in.history)
	}
}

// historyFailed says, once a run, that the history file could not be
// read or written; the history still works for this run.
func (m *Model) historyFailed(err error) {
	if err == nil || m.historyWarned {
		return
	}
	m.historyWarned = true
	m.notice(err.Error() + " — the history is kept for this run only")
}

// clear empties the box into the history, so ↑ brings it back; it is
// not saved to the file, as it was never sent.
func (in *input) clear() {
	e := historyEntry{Text: strings.TrimSpace(in.ta.Value()), Pastes: in.pastes}
	in.pastes = nil
	in.clearMentions()
	in.ta.Reset()
	in.popup.close()
	in.sendWhenRead = false
	in.remember(e)
	in.unsaved = nil
}

// clearInput empties the input (ctrl+c with text in it): what peers do
// (Claude Code, Codex and Kimi clear on ctrl+c) and what a shell does to
// its line; unlike some, the text can be had back with ↑, and a running
// task goes on (esc cancels it).
func (m *Model) clearInput() {
	m.input.clear()
	m.status.setHint("cleared the input — ↑ brings it back; ctrl+c twice quits")
}

// inputShown reports whether the input is on screen and has the keys: no
// dialog, browser, help or welcome screen covers it.
func (m *Model) inputShown() bool {
	return m.session != nil && !m.dialogs.active() && m.browser == nil && !m.help.open
}

// historyFile is where prompts are kept across launches: none for the
// demo, whose workspace is a new temporary copy each time.
func (m *Model) historyFile() string {
	if m.opts.Demo {
		return ""
	}
	return m.opts.HistoryFile
}
