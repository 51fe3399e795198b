package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/attach"
	"github.com/keel-dev/keel/ui/editor"
)

// wheelLines is how far one mouse wheel notch scrolls.
const wheelLines = 3

// handleKey routes a key: ctrl+c always; then an open dialog, the browser,
// the help or the welcome screen take it; then the screen's keys; then
// the input. Every key is compared through a KeyMap binding.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Stop) && m.running && m.session != nil && !m.stopping {
		m.quitArmed = false // a task that will not stop: ctrl+c twice more quits
		m.cancel("ctrl+c")
		return nil
	}
	if key.Matches(msg, m.keys.Stop) && m.shell.Active() {
		m.quitArmed = false // as for a task: a running !command is stopped, not left behind
		m.shell.CancelAll()
		m.notice("cancelling the !command (ctrl+c)…")
		return nil
	}
	if key.Matches(msg, m.keys.ClearInput) && m.inputShown() && !m.input.Empty() {
		m.quitArmed = false
		m.clearInput()
		return nil
	}
	if key.Matches(msg, m.keys.Quit) {
		return m.ctrlC()
	}
	m.quitArmed = false
	m.status.SetHint("")
	if cmd, ok := m.overlayKey(msg); ok {
		return cmd
	}
	if cmd, ok := m.input.CompletionKey(msg); ok {
		return cmd
	}
	if cmd, ok := m.screenKey(msg); ok {
		return cmd
	}
	if m.input.Empty() {
		if cmd, ok := m.emptyInputKey(msg); ok {
			return cmd
		}
	}
	if msg.Text != "" {
		m.lastTyped = m.now()
	}
	return m.edit(msg)
}

// overlayKey gives a key to whatever covers the main screen: a dialog,
// the browser, the help, or the welcome screen.
func (m *Model) overlayKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case m.dialogs.Active():
		if m.dialogs.TypedAhead(m.now()) {
			m.status.SetHint("a question opened as you typed: that key was not taken as an answer")
			return nil, true
		}
		asked := m.dialogs.ShownCallID()
		line, cmd := m.dialogs.Key(msg)
		if line != "" {
			m.notice(line)
			if asked != "" {
				m.tr.ResumeClock(asked, m.now()) // answered: its time runs from now
			}
		}
		return cmd, true
	case m.browser != nil:
		return m.browserKey(msg), true
	case m.help.Open():
		m.help.Key(msg, m.keys.HelpView, m.helpMaxTop(), m.helpPage())
		return nil, true
	case m.session == nil:
		return m.welcomeKey(msg), true
	}
	return nil, false
}

// ctrlC quits on the second press (a running task was stopped by the
// first: handleKey).
func (m *Model) ctrlC() tea.Cmd {
	if m.quitArmed {
		return m.quit()
	}
	m.quitArmed = true
	m.status.SetHint("press ctrl+c again to quit")
	return nil
}

// screenKey handles the keys that work whatever the input holds.
func (m *Model) screenKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	w, h := m.transcriptSize()
	switch {
	case key.Matches(msg, k.Cancel):
		return m.escape(), true
	case key.Matches(msg, k.Send):
		m.lastTyped = time.Time{} // sent (a prompt, a !command, a /command): not typed ahead of a question
		return m.send(), true
	case key.Matches(msg, k.Plan):
		m.togglePlan()
	case key.Matches(msg, k.Log):
		return m.openBrowser(), true
	case key.Matches(msg, k.PageUp):
		m.tr.ScrollUp(max(h-2, 1), w, h)
	case key.Matches(msg, k.PageDown):
		m.tr.ScrollDown(max(h-2, 1), w, h)
	case key.Matches(msg, k.SelectPrev):
		m.tr.SelectNext(-1)
	case key.Matches(msg, k.SelectNext):
		m.tr.SelectNext(1)
	case key.Matches(msg, k.Expand):
		m.tr.ToggleSelected()
	case key.Matches(msg, k.PasteImage):
		return m.input.PasteImage(), true
	case key.Matches(msg, k.Complete):
		m.tabComplete()
	default:
		return nil, false
	}
	return nil, true
}

// emptyInputKey handles the single-letter keys, which type text once the
// input holds something.
func (m *Model) emptyInputKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Help):
		m.help.Show()
	case key.Matches(msg, k.Copy):
		return m.copyAnswer(), true
	case key.Matches(msg, k.Home):
		m.tr.Home()
	case key.Matches(msg, k.End):
		m.tr.End()
	default:
		return nil, false
	}
	return nil, true
}

// escape cancels the running task, else the running !commands.
func (m *Model) escape() tea.Cmd {
	switch {
	case m.running && m.session != nil:
		m.cancel("esc")
	case m.shell.CancelAll() > 0:
		m.notice("cancelling the !command (esc)…")
	}
	return nil
}

// cancel stops the running task; queued prompts are dropped with it.
// by names the key, for the notice.
func (m *Model) cancel(by string) {
	m.session.Cancel()
	m.stopping = true
	m.status.SetCancelling(true)
	for _, q := range m.queue {
		m.tr.Remove(q.entry)
	}
	m.queue = nil
	m.notice("cancelling the task (" + by + ")…")
}

// send submits the input and saves what was sent to the prompt history.
func (m *Model) send() tea.Cmd {
	cmd := m.sendInput()
	if e := m.input.TakeUnsaved(); e != nil {
		return tea.Batch(cmd, editor.AppendHistoryCmd(m.historyFile(), *e))
	}
	return cmd
}

// sendInput submits the input: a /command runs, a !command runs in the
// shell; a prompt is sent with its mentioned files, or queued while a
// task runs.
func (m *Model) sendInput() tea.Cmd {
	text := strings.TrimSpace(m.input.Value())
	switch {
	case text == "":
		return nil
	case strings.HasPrefix(text, "!"):
		_, line := m.input.Take()
		return m.startShell(strings.TrimPrefix(line, "!"))
	case m.isSlash(text):
		_, line := m.input.Take()
		return m.runSlash(line)
	case m.session == nil:
		m.errorCard("no provider is configured — see the steps above, or run `keel --demo`")
		return nil
	}
	files, loading := m.input.Attachments()
	if err := m.session.ImagesRefused(); err != nil && len(attach.Images(files)) > 0 { // said now: the prompt stays in the box
		m.errorCard(err.Error())
		return nil
	}
	if len(loading) > 0 { // sent once they are read (mentionRead)
		m.input.SendWhenRead()
		m.status.SetHint("reading " + strings.Join(loading, ", ") + "… the prompt goes when it is read")
		return nil
	}
	prompt, shown := m.input.Take()
	return m.sendPrompt(shown, prompt, files)
}

func (m *Model) tabComplete() {
	text, matches := m.completeSlash(m.input.Value())
	m.input.Set(text)
	m.input.ShowSlash(matches)
}

func (m *Model) togglePlan() {
	if !m.plan.Toggle() {
		m.notice("no plan yet: keel makes one for tasks of three or more steps")
		return
	}
	m.layout()
}

// copyAnswer copies the last answer to the clipboard (OSC 52).
func (m *Model) copyAnswer() tea.Cmd {
	a := m.tr.LastAnswer()
	if a == "" {
		m.status.SetHint("no answer to copy yet")
		return nil
	}
	m.status.SetHint("copied the last answer to the clipboard")
	return tea.SetClipboard(a)
}

func (m *Model) handlePaste(msg tea.PasteMsg) tea.Cmd {
	switch {
	case m.dialogs.Active():
		m.dialogs.Paste(msg)
		return nil
	case m.browser != nil:
		return nil
	}
	return m.edit(msg)
}

func (m *Model) handleWheel(msg tea.MouseWheelMsg) {
	w, h := m.transcriptSize()
	switch msg.Button {
	case tea.MouseWheelUp:
		m.tr.ScrollUp(wheelLines, w, h)
	case tea.MouseWheelDown:
		m.tr.ScrollDown(wheelLines, w, h)
	}
}
