package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/browser"
)

// openBrowser opens the datalog browser and loads the sessions list.
func (m *Model) openBrowser() tea.Cmd {
	if m.opts.DB == nil {
		m.notice("the datalog is off, so there is nothing to browse — enable it in `keel config`")
		return nil
	}
	m.browser = browser.New(m.keys.Browser)
	live := ""
	if m.session != nil {
		live = m.session.ID()
	}
	m.browser.SetScope(m.opts.Status.Workspace, live)
	return browser.ListSessions(m.opts.DB, m.browser.Project())
}

// browserKey passes a key to the browser and carries out what it asks.
func (m *Model) browserKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.browser.Key(msg, max(m.height-3, 1)) {
	case browser.Close:
		m.browser = nil
	case browser.Load:
		return browser.LoadSession(m.opts.DB, m.browser.SelectedID())
	case browser.Reload:
		return browser.ListSessions(m.opts.DB, m.browser.Project())
	case browser.Resume:
		id := m.browser.SelectedID()
		m.browser = nil
		return m.resume(id)
	}
	return nil
}

// resume asks to continue a logged session: through the Resume hook, or
// by quitting so Run returns a *ResumeRequest.
func (m *Model) resume(id string) tea.Cmd {
	if m.session == nil { // the welcome screen: nothing to resume with
		m.status.SetHint("configure a provider (the steps above) to resume a session")
		return nil
	}
	if m.running {
		m.notice("keel is working: cancel the task with esc before resuming another session")
		return nil
	}
	if m.opts.Resume != nil {
		return m.opts.Resume(id)
	}
	m.resumeID = id
	return m.quit()
}
