package ui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/attach"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/customcmd"
	"github.com/keel-dev/keel/ui/shellcmd"
	"github.com/keel-dev/keel/ui/transcript"
)

// The root's side of what the editor sends: prompts with their mentions,
// !commands, custom /commands and the completion list.

// edit passes a key or a paste to the input.
func (m *Model) edit(msg tea.Msg) tea.Cmd { return m.input.Update(msg) }

// queued is a prompt typed while a task runs: its entry, shown as
// queued, and the text to send once the task ends.
type queued struct {
	entry  *transcript.Entry
	prompt string
	images []tools.Image
}

// sendPrompt shows a prompt and sends it, or queues it while a task runs.
// The mentioned files are attached and the output of the !commands run
// since the last prompt is prepended.
func (m *Model) sendPrompt(shown, prompt string, files []attach.File) tea.Cmd {
	outs := m.shell.Take()
	full := attach.Compose(prompt, files, outs)
	e := m.tr.AddPrompt(shown, files, outs, m.running)
	images := attach.Images(files)
	if m.running {
		m.queue = append(m.queue, queued{entry: e, prompt: full, images: images})
		return nil
	}
	return m.submit(full, images)
}

// startShell runs a !command as the user's own (no permission question):
// shown at once, its outcome arriving as a shellcmd.DoneMsg.
func (m *Model) startShell(command string) tea.Cmd {
	command = strings.TrimSpace(command)
	if m.opts.Shell == nil || m.session == nil {
		m.notice("!commands are not available in this session")
		return nil
	}
	if command == "" {
		m.notice("type a shell command after !, e.g. !git status")
		return nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	id := m.trackShell(command, cancel)
	return tea.Batch(shellcmd.Run(ctx, *m.opts.Shell, id, command), m.startSpin())
}

// trackShell shows a !command about to run and registers it; it returns
// its id.
func (m *Model) trackShell(command string, cancel context.CancelFunc) int {
	id := m.shell.Start(command, cancel)
	m.shellEntries[id] = m.tr.AddShell(command, m.now())
	return id
}

// shellDone shows a !command's outcome; its output waits for the next
// prompt.
func (m *Model) shellDone(msg shellcmd.DoneMsg) {
	limit := 0
	if m.opts.Shell != nil {
		limit = m.opts.Shell.OutputCap
	}
	if !m.shell.Finish(msg, limit) {
		return
	}
	e := m.shellEntries[msg.ID]
	delete(m.shellEntries, msg.ID)
	m.tr.FinishShell(e, transcript.ShellOutcome{Output: msg.Result.Output, ExitCode: msg.Result.ExitCode, IsError: msg.Result.IsError,
		Duration: msg.Duration})
}

// setCustom installs the custom commands; one a built-in hides is
// dropped, and every conflict is said once.
func (m *Model) setCustom(msg customcmd.Msg) {
	for _, n := range msg.Notices {
		m.notice(n)
	}
	m.custom = m.custom[:0]
	for _, c := range msg.Commands {
		if builtinSlash(c.Name) {
			m.notice(c.Name + ": the built-in command wins over " + common.Clean(c.Source))
			continue
		}
		m.custom = append(m.custom, c)
	}
}

// runCustom sends a custom command's prompt, as if typed.
func (m *Model) runCustom(c customcmd.Command, arg string) tea.Cmd {
	if m.session == nil {
		m.errorCard("no provider is configured — see the steps above, or run `keel --demo`")
		return nil
	}
	return m.sendPrompt(strings.TrimSpace(c.Name+" "+arg), c.Expand(arg), nil)
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

// clearInput empties the input (ctrl+c with text in it): what peers do
// (Claude Code, Codex and Kimi clear on ctrl+c) and what a shell does to
// its line; unlike some, the text can be had back with ↑, and a running
// task goes on (esc cancels it).
func (m *Model) clearInput() {
	m.input.Clear()
	m.status.SetHint("cleared the input — ↑ brings it back; ctrl+c twice quits")
}

// inputShown reports whether the input is on screen and has the keys: no
// dialog, browser, help or welcome screen covers it.
func (m *Model) inputShown() bool {
	return m.session != nil && !m.dialogs.Active() && m.browser == nil && !m.help.Open()
}

// historyFile is where prompts are kept across launches: none for the
// demo, whose workspace is a new temporary copy each time.
func (m *Model) historyFile() string {
	if m.opts.Demo {
		return ""
	}
	return m.opts.HistoryFile
}
