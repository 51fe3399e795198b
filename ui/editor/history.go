package editor

// The input's history: ↑ on the first line and ↓ on the last browse the
// prompts sent, this launch's after those read from the workspace's
// history file (historyfile.go). An entry keeps its pastes, so a
// recalled "[pasted 12 lines]" still sends the 12 lines.

// browse moves through the history; it reports whether it moved.
func (in *Model) browse(dir int) bool {
	if len(in.history) == 0 {
		return false
	}
	if in.hpos == len(in.history) && dir < 0 {
		in.draft = HistoryEntry{Text: in.ta.Value(), Pastes: in.pastes}
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
func (in *Model) remember(e HistoryEntry) {
	if e.Text != "" && (len(in.history) == 0 || in.history[len(in.history)-1].Text != e.Text) {
		in.history = append(in.history, e)
		in.unsaved = &e
	}
	if len(in.history) > maxHistory {
		in.history = append([]HistoryEntry(nil), in.history[len(in.history)-maxHistory:]...)
	}
	in.hpos = len(in.history)
	in.draft = HistoryEntry{}
}

// TakeUnsaved returns the prompt taken last if it is not saved yet.
func (in *Model) TakeUnsaved() *HistoryEntry {
	e := in.unsaved
	in.unsaved = nil
	return e
}

// LoadHistory puts the prompts of earlier launches before this one's;
// a browse in progress keeps its place.
func (in *Model) LoadHistory(earlier []HistoryEntry) {
	browsing := in.hpos < len(in.history)
	in.history = append(append([]HistoryEntry(nil), earlier...), in.history...)
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
