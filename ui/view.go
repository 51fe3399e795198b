package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/helpview"
)

// View draws the screen. It only composes cached lines of what is visible;
// nothing here reads a file or the network.
func (m *Model) View() tea.View {
	v := tea.NewView(m.content())
	v.AltScreen = true
	if m.opts.Mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = m.title()
	return v
}

// Window titles say at a glance, from a tab bar or a tmux status line,
// whether keel needs the user. TitleReady is also what end-to-end tests
// wait on: keel shows it only with nothing in flight.
const (
	TitleReady   = "keel: ready"
	TitleAsking  = "keel: needs you"
	TitleWorking = "keel: working"
)

// title is the window title for the current state.
func (m *Model) title() string {
	switch {
	case m.dialogs.Active():
		return TitleAsking
	case m.running || m.shell.Active():
		return TitleWorking
	}
	return TitleReady
}

// content is the screen as text, exactly width × height.
func (m *Model) content() string {
	switch {
	case m.width == 0 || m.height == 0:
		return ""
	case m.tooSmall():
		return m.tooSmallView()
	case m.session == nil && m.browser == nil && m.help.Open():
		return m.helpScreen()
	case m.session == nil && m.browser == nil:
		return m.welcomeView()
	case m.browser != nil:
		return m.browser.View(m.st, m.width, m.height)
	}
	return m.mainView()
}

func (m *Model) tooSmallView() string {
	msg := "keel needs at least 40×10 — make the terminal larger"
	return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center,
		ansi.Wrap(msg, max(m.width, 1), ""))
}

// mainView is the conversation (with the plan panel on wide screens), a
// dialog if one is waiting, and the bottom rows.
func (m *Model) mainView() string {
	w, h := m.transcriptSize()
	if m.help.Open() && !m.dialogs.Active() {
		return m.helpScreen() + "\n" + m.bottomView() // over the plan panel too: the help needs the room
	}
	var overlay []string
	if m.dialogs.Active() {
		overlay = strings.Split(m.dialogs.View(m.st, w, h), "\n")
	}
	overlay = overlay[:min(len(overlay), h)]
	for i, l := range overlay {
		overlay[i] = common.Fit(l, w)
	}
	body := m.tr.View(w, h-len(overlay), m.spinner()) // lines come padded to w
	body = append(body, overlay...)
	top := strings.Join(body, "\n")
	if m.sidePanel() {
		top = lipgloss.JoinHorizontal(lipgloss.Top, top, m.plan.View(m.st, m.spinner(), planPanelWidth(m.width), h))
	}
	return top + "\n" + m.bottomView()
}

// bottomView is the rows under the transcript.
func (m *Model) bottomView() string {
	var rows []string
	rows = append(rows, m.input.CompletionRows(m.width)...)
	if m.foldedPlan() {
		rows = append(rows, m.plan.Summary(m.st, m.spinner(), m.width))
	}
	if b := m.datalogBanner(); b != "" {
		rows = append(rows, b)
	}
	rows = append(rows, m.rule(), m.input.View())
	rows = append(rows, m.status.View(m.st, m.spinner(), m.width))
	return strings.Join(rows, "\n")
}

// allHelp is the whole `?` help for width columns.
func (m *Model) allHelp(width int) []string {
	return helpview.Lines(m.st, m.keys, m.slashHelp(), width)
}

// helpArea is the room the help covers: the whole screen on the welcome
// screen, else everything above the input, across the plan panel.
func (m *Model) helpArea() (int, int) {
	if m.session == nil {
		return m.width, m.height
	}
	_, h := m.transcriptSize()
	return m.width, h
}

// helpMaxTop is how far the help scrolls on the current screen.
func (m *Model) helpMaxTop() int {
	w, h := m.helpArea()
	return helpview.MaxTop(len(m.allHelp(w)), h)
}

// helpPage is how far pgup and pgdn scroll the help: the lines a window
// shows (its last row says how to scroll) less one kept in view.
func (m *Model) helpPage() int {
	_, h := m.helpArea()
	return h - 2
}

// helpScreen is the help filling its area, each line padded to its width.
func (m *Model) helpScreen() string {
	w, h := m.helpArea()
	lines := m.help.View(m.allHelp(w), w, h)
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = common.Fit(l, w)
	}
	return strings.Join(lines, "\n")
}

// spinner is the spinner's glyph for this frame.
func (m *Model) spinner() string { return common.Spinner(m.spinFrame) }

// rule is the line above the input, drawn once per width.
func (m *Model) rule() string {
	if m.ruleW != m.width {
		m.ruleW, m.ruleS = m.width, m.st.Dim.Render(strings.Repeat("─", m.width))
	}
	return m.ruleS
}
