package ui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/attach"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/transcript"
)

// The root's side of what the editor sends: prompts with their mentions,
// !commands, custom /commands and the completion list.

// completionKey handles a key while the completion list shows.
func (m *Model) completionKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !m.input.popup.isOpen() {
		return nil, false
	}
	k := m.keys.Completion
	switch {
	case key.Matches(msg, k.Prev):
		m.input.popup.move(-1)
	case key.Matches(msg, k.Next):
		m.input.popup.move(1)
	case key.Matches(msg, k.Accept):
		return m.input.accept(), true
	case key.Matches(msg, k.Dismiss):
		m.input.hideCompletions()
	default:
		return nil, false
	}
	return nil, true
}

// edit passes a key or a paste to the input, then follows the text (an
// @ opens the file list).
func (m *Model) edit(msg tea.Msg) tea.Cmd {
	m.input.sendWhenRead = false // the prompt changed: Enter again sends it
	if m.input.popup.kind == completeSlash {
		m.input.hideCompletions()
	}
	return tea.Batch(m.input.update(msg), m.input.afterEdit())
}

// queued is a prompt typed while a task runs: its entry, shown as
// queued, and the text to send once the task ends.
type queued struct {
	entry  *transcript.Entry
	prompt string
}

// sendPrompt shows a prompt and sends it, or queues it while a task runs.
// The mentioned files are attached and the output of the !commands run
// since the last prompt is prepended.
func (m *Model) sendPrompt(shown, prompt string, files []attach.File) tea.Cmd {
	outs := m.shell.take()
	full := attach.Compose(prompt, files, outs)
	e := m.tr.AddPrompt(shown, files, outs, m.running)
	if m.running {
		m.queue = append(m.queue, queued{entry: e, prompt: full})
		return nil
	}
	return m.submit(full)
}

// startShell runs a !command: shown at once, judged by the session's
// policy, its outcome arriving as a shellDoneMsg.
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
	e := m.tr.AddShell(command)
	ctx, cancel := context.WithCancel(m.ctx)
	id := m.shell.start(e, command, cancel)
	var gate agent.Gate
	if m.opts.Bridge != nil {
		gate = m.opts.Bridge
	}
	return tea.Batch(runShell(ctx, *m.opts.Shell, gate, id, command), m.startSpin())
}

// shellDone shows a !command's outcome; its output waits for the next
// prompt.
func (m *Model) shellDone(msg shellDoneMsg) {
	limit := 0
	if m.opts.Shell != nil {
		limit = m.opts.Shell.OutputCap
	}
	run, ok := m.shell.finish(msg, limit)
	if ok {
		m.tr.FinishShell(run.entry, transcript.ShellOutcome{Denied: msg.denied, Reason: msg.reason, Err: msg.err,
			Output: msg.res.Output, ExitCode: msg.res.ExitCode, IsError: msg.res.IsError, Duration: msg.duration})
	}
}

// setCustom installs the custom commands; one a built-in hides is
// dropped, and every conflict is said once.
func (m *Model) setCustom(msg commandsMsg) {
	for _, n := range msg.notices {
		m.notice(n)
	}
	m.custom = m.custom[:0]
	for _, c := range msg.cmds {
		if builtinSlash(c.name) {
			m.notice(c.name + ": the built-in command wins over " + common.Clean(c.source))
			continue
		}
		m.custom = append(m.custom, c)
	}
}

// runCustom sends a custom command's prompt, as if typed.
func (m *Model) runCustom(c customCommand, arg string) tea.Cmd {
	if m.session == nil {
		m.errorCard("no provider is configured — see the steps above, or run `keel --demo`")
		return nil
	}
	return m.sendPrompt(strings.TrimSpace(c.name+" "+arg), c.expand(arg), nil)
}
