package ui

import (
	tea "charm.land/bubbletea/v2"
)

// resumedRestMsg carries a resumed session's whole transcript, built off
// the update loop; nil entries when it could not be loaded.
type resumedRestMsg struct{ entries []*entry }

// loadResumedRest is the Cmd that loads the rest of a resumed session
// whose first screen showed only its last rounds (Options.ResumedRest),
// and builds its entries; nil when there is nothing more to load.
func (m *Model) loadResumedRest() tea.Cmd {
	load := m.opts.ResumedRest
	if load == nil || m.resumedTail[1] == 0 {
		return nil
	}
	first, ctx := m.firstFrame, m.ctx
	return func() tea.Msg {
		if first != nil { // the whole record's load would slow the first frame down
			select {
			case <-first:
			case <-ctx.Done():
				return nil
			}
		}
		d := load()
		if d == nil {
			return resumedRestMsg{}
		}
		whole := newTranscript(nil) // entries only: nothing is rendered here
		whole.loadLog(d)
		return resumedRestMsg{entries: whole.entries}
	}
}

// resumedRestLoaded puts the whole transcript in place of the tail.
func (m *Model) resumedRestLoaded(msg resumedRestMsg) {
	start, end := m.resumedTail[0], m.resumedTail[1]
	m.resumedTail = [2]int{}
	if msg.entries == nil {
		m.notice("the earlier rounds of this session could not be loaded; keel log show has them")
		return
	}
	m.tr.replaceRange(start, end, msg.entries)
}

// watchFirstFrame is Run's render hook, which tells the model when its
// first frame is on the screen.
func (m *Model) watchFirstFrame() tea.ProgramOption {
	m.firstFrame = make(chan struct{})
	return tea.WithRenderHook(m.frameDrawn)
}

// frameDrawn is called by Bubble Tea after each pass of its render loop:
// the first closes firstFrame.
func (m *Model) frameDrawn() {
	m.firstFrameOnce.Do(func() {
		if m.firstFrame != nil {
			close(m.firstFrame)
		}
	})
}
