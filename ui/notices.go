package ui

import tea "charm.land/bubbletea/v2"

// lateNoticeMsg is a note from outside the session (Options.LateNotices).
type lateNoticeMsg struct{ text string }

// waitNotice waits for the next late notice on ch, in a command so no
// producer ever blocks on the program; nil when there is no channel.
func waitNotice(ch <-chan string) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		s, ok := <-ch
		if !ok {
			return nil
		}
		return lateNoticeMsg{text: s}
	}
}
