package ui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/keel-dev/keel/ui/editor"
	"github.com/keel-dev/keel/ui/helpview"
)

// slashCommand is one /command: its name, what it takes and does.
type slashCommand struct {
	name, args, desc string
	run              func(m *Model, arg string) tea.Cmd
}

// slashCommands are the commands, in the order /help lists them.
var slashCommands = []slashCommand{
	{"/help", "", "show keys and commands", (*Model).cmdHelp},
	{"/plan", "", "show or hide the plan panel", (*Model).cmdPlan},
	{"/log", "", "browse the datalog", (*Model).cmdLog},
	{"/undo", "", "undo the last task's file changes", (*Model).cmdUndo},
	{"/compact", "", "summarise older rounds to free context", (*Model).cmdCompact},
	{"/cadence", "N", "checkpoint every N tool calls (0: off)", (*Model).cmdCadence},
	{"/reflect", "", "a checkpoint after the round in flight", (*Model).cmdReflect},
	{"/notes", "", "the working memory's notes", (*Model).cmdNotes},
	{"/model", "NAME", "switch the model", (*Model).cmdModel},
	{"/clear", "", "clear the screen (the conversation is kept)", (*Model).cmdClear},
	{"/resume", "[ID]", "resume a logged session", (*Model).cmdResume},
	{"/mcp", "", "MCP servers: state, tools, last stderr lines", (*Model).cmdMCP},
	{"/jobs", "", "background jobs: running and ended", (*Model).cmdJobs},
	{"/cost", "", "tokens and cost of the task and the session", (*Model).cmdCost},
	{"/status", "", "model, endpoint, workspace, session, datalog, sandbox", (*Model).cmdStatus},
	{"/quit", "", "quit keel", (*Model).cmdQuit},
}

// builtinSlash reports whether name is a built-in command.
func builtinSlash(name string) bool {
	for _, c := range slashCommands {
		if c.name == name {
			return true
		}
	}
	return false
}

// slashMatches lists the commands starting with prefix, built-in ones
// first, then the custom ones, each with its description.
func (m *Model) slashMatches(prefix string) []editor.Item {
	var out []editor.Item
	for _, c := range slashCommands {
		if strings.HasPrefix(c.name, prefix) {
			out = append(out, editor.Item{Value: c.name, Desc: c.desc})
		}
	}
	for _, c := range m.custom {
		if strings.HasPrefix(c.Name, prefix) {
			out = append(out, editor.Item{Value: c.Name, Desc: c.Desc})
		}
	}
	for _, p := range m.mcpPrompts() {
		if strings.HasPrefix(p.Name, prefix) {
			out = append(out, editor.Item{Value: p.Name, Desc: p.Desc})
		}
	}
	return out
}

// completeSlash extends a partial /command to the longest common prefix
// of its matches (and a space when only one matches).
func (m *Model) completeSlash(text string) (string, []editor.Item) {
	if !strings.HasPrefix(text, "/") || strings.ContainsAny(text, " \n") {
		return text, nil
	}
	ms := m.slashMatches(text)
	switch len(ms) {
	case 0:
		return text, nil
	case 1:
		return ms[0].Value + " ", ms
	}
	p := ms[0].Value
	for _, s := range ms[1:] {
		for !strings.HasPrefix(s.Value, p) {
			p = p[:len(p)-1]
		}
	}
	return p, ms
}

// isSlash reports whether a prompt is a command rather than a prompt.
func (m *Model) isSlash(text string) bool {
	name, _, _ := strings.Cut(text, " ")
	return strings.HasPrefix(text, "/") && len(m.slashMatches(name)) > 0 && !strings.Contains(name, "\n")
}

// runSlash runs a /command line, built-in or custom; unknown commands say
// so.
func (m *Model) runSlash(line string) tea.Cmd {
	name, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	arg = strings.TrimSpace(arg)
	for _, c := range slashCommands {
		if c.name == name {
			return c.run(m, arg)
		}
	}
	for _, c := range m.custom {
		if c.Name == name {
			return m.runCustom(c, arg)
		}
	}
	for _, p := range m.mcpPrompts() {
		if p.Name == name {
			return m.runMCPPrompt(p, arg)
		}
	}
	if ms := m.slashMatches(name); len(ms) == 1 {
		return m.runSlash(ms[0].Value + " " + arg)
	}
	m.notice(fmt.Sprintf("unknown command %s — type / and Tab to see the commands", name))
	return nil
}

func (m *Model) cmdHelp(string) tea.Cmd {
	m.help.Show()
	return nil
}

func (m *Model) cmdPlan(string) tea.Cmd {
	m.togglePlan()
	return nil
}

func (m *Model) cmdLog(string) tea.Cmd { return m.openBrowser() }

func (m *Model) cmdUndo(string) tea.Cmd { return m.hook("/undo", m.opts.Undo) }

func (m *Model) cmdCompact(string) tea.Cmd { return m.hook("/compact", m.opts.Compact) }

func (m *Model) cmdMCP(string) tea.Cmd { return m.hook("/mcp", m.opts.MCP) }

// hook calls an optional hook, or says the command is not available.
func (m *Model) hook(name string, h func() tea.Cmd) tea.Cmd {
	if h == nil || m.session == nil {
		m.notice(name + " is not available in this session")
		return nil
	}
	return h()
}

func (m *Model) cmdCadence(arg string) tea.Cmd {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 {
		m.errorCard("usage: /cadence N — N tool calls between checkpoints, 0 turns them off")
		return nil
	}
	if m.session == nil {
		m.notice("/cadence is not available without a session")
		return nil
	}
	m.session.SetCadence(n)
	m.status.SetCadence(n)
	if n == 0 {
		m.notice("checkpoints off for this session")
	} else {
		m.notice(fmt.Sprintf("checkpoint every %d tool calls from the next round", n))
	}
	return nil
}

func (m *Model) cmdModel(arg string) tea.Cmd {
	if arg == "" {
		m.notice("model: " + m.status.ModelLabel() + " — /model NAME switches")
		return nil
	}
	if m.opts.SetModel == nil || m.session == nil {
		m.notice("/model is not available in this session")
		return nil
	}
	return m.opts.SetModel(arg)
}

func (m *Model) cmdClear(string) tea.Cmd {
	m.tr.Clear()
	return nil
}

func (m *Model) cmdResume(arg string) tea.Cmd {
	if arg == "" {
		return m.openBrowser()
	}
	return m.resume(arg)
}

func (m *Model) cmdQuit(string) tea.Cmd { return m.quit() }

// slashHelp lists the commands for the help overlay: the built-in ones,
// then the custom ones with their first line.
func (m *Model) slashHelp() []helpview.Entry {
	out := make([]helpview.Entry, 0, len(slashCommands)+len(m.custom))
	for _, c := range slashCommands {
		out = append(out, helpview.Entry{Key: strings.TrimSpace(c.name + " " + c.args), Desc: c.desc})
	}
	for _, c := range m.custom {
		out = append(out, helpview.Entry{Key: c.Name + " [ARGS]", Desc: c.Desc})
	}
	return out
}
