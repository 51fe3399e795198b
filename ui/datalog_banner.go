package ui

import (
	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/common"
)

// The datalog banner: while keel's datalog cannot save, a row above the
// input says so (file changes ask first, since undo could not restore
// them); it goes when everything kept in memory is saved.

// datalogHealth keeps or clears the banner.
func (m *Model) datalogHealth(ev agent.DatalogHealth) {
	if ev.OK {
		m.datalogAlert = ""
		m.notice(common.Clean(ev.Text))
		return
	}
	m.datalogAlert = common.Clean(ev.Text)
}

// datalogBanner is the banner's row, fitted to the width; "" when none.
func (m *Model) datalogBanner() string {
	if m.datalogAlert == "" {
		return ""
	}
	return m.st.Warn.Render(common.Fit("⚠ "+m.datalogAlert, m.width))
}
