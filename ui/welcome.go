package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/welcome"
)

// welcomeKey handles a key on the welcome screen. Its keys are the demo,
// the help and the datalog browser; the input is not drawn there, so no
// key types into it (text typed blind would turn ? into a character).
func (m *Model) welcomeKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Demo):
		m.demoAsked = true
		return tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.help.Show()
	case key.Matches(msg, m.keys.Log):
		if m.opts.DB == nil {
			m.status.SetHint("no past sessions to browse: keel logs them once it has run a task")
			return nil
		}
		return m.openBrowser()
	default:
		m.status.SetHint("keys: d runs the demo · ? lists the keys · ctrl+l past sessions")
	}
	return nil
}

// welcomeView is the first-run screen: no usable provider is configured.
func (m *Model) welcomeView() string {
	return welcome.View(m.st, m.width, m.height, m.opts.ConfigPath, m.status.Hint())
}
