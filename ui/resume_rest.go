package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/transcript"
)

// resumedRestMsg carries a resumed session's whole transcript, built off
// the update loop; nil entries when it could not be loaded.
type resumedRestMsg struct{ entries []*transcript.Entry }

// firstFrameMsg comes once Bubble Tea's first frame has been drawn: its
// renderer draws on a ticker at the frame rate, whose first tick is one
// interval after the start, so a tick of the same interval started in Init
// fires after it.
type firstFrameMsg struct{}

// afterFirstFrame is Init's Cmd that leads, through firstFrameMsg, to the
// load of a resumed session's rest; nil when there is nothing more to load.
// The whole record's load would slow the first frame down, so it waits.
func (m *Model) afterFirstFrame() tea.Cmd {
	if m.opts.ResumedRest == nil || m.resumedTail[1] == 0 {
		return nil
	}
	return tea.Tick(transcript.FrameInterval, func(time.Time) tea.Msg { return firstFrameMsg{} })
}

// loadResumedRest is the Cmd that loads the rest of a resumed session
// whose first screen showed only its last rounds (Options.ResumedRest),
// and builds its entries; nil when there is nothing more to load.
func (m *Model) loadResumedRest() tea.Cmd {
	load := m.opts.ResumedRest
	if load == nil || m.resumedTail[1] == 0 {
		return nil
	}
	return func() tea.Msg {
		d := load()
		if d == nil {
			return resumedRestMsg{}
		}
		return resumedRestMsg{entries: transcript.Replay(d)} // entries only: nothing is rendered here
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
	m.tr.ReplaceRange(start, end, msg.entries)
}
