package ui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/common"
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

// sendPrompt shows a prompt and sends it, or queues it while a task runs.
// The mentioned files are attached and the output of the !commands run
// since the last prompt is prepended.
func (m *Model) sendPrompt(shown, prompt string, files []mention) tea.Cmd {
	outs := m.shell.take()
	full := withShellOutput(attachFiles(prompt, files), outs)
	e := m.tr.addPrompt(shown, full, m.running)
	e.chips, e.attached = promptNotes(files, outs)
	if m.running {
		m.queue = append(m.queue, e)
		return nil
	}
	return m.submit(full)
}

// promptNotes are a prompt's chips and the line saying what went with it.
func promptNotes(files []mention, outs []shellOutput) ([]string, string) {
	var chips, parts []string
	for _, f := range files {
		chips = append(chips, f.chip())
		parts = append(parts, f.note())
	}
	for _, o := range outs {
		parts = append(parts, "output of !"+common.OneLine(o.command))
	}
	if len(parts) == 0 {
		return chips, ""
	}
	return chips, "with " + strings.Join(parts, " · ")
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
	e := m.tr.addShell(command)
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
		m.tr.finishShell(run.entry, msg)
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
