package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/attach"
	"github.com/keel-dev/keel/ui/common"
)

// MCPPrompt is an MCP server's prompt as a slash command: Name is
// "/SERVER:PROMPT", Desc its description and how to give its arguments.
type MCPPrompt struct {
	Name, Desc string
}

// mcpPromptMsg carries a prompt's text (or why there is none) for the
// command line the user typed.
type mcpPromptMsg struct {
	shown  string
	text   string
	images []tools.Image
	err    error
}

// mcpPrompts are the prompts the servers offer now; a built-in or custom
// command of the same name hides one.
func (m *Model) mcpPrompts() []MCPPrompt {
	if m.opts.MCPPrompts == nil {
		return nil
	}
	var out []MCPPrompt
	for _, p := range m.opts.MCPPrompts() {
		p.Name, p.Desc = common.Clean(p.Name), common.Clean(p.Desc)
		if !builtinSlash(p.Name) && !m.isCustom(p.Name) {
			out = append(out, p)
		}
	}
	return out
}

func (m *Model) isCustom(name string) bool {
	for _, c := range m.custom {
		if c.Name == name {
			return true
		}
	}
	return false
}

// runMCPPrompt gets the prompt's text from its server in a command; it
// is sent as typed (mcpPromptDone).
func (m *Model) runMCPPrompt(p MCPPrompt, arg string) tea.Cmd {
	if m.session == nil || m.opts.RunMCPPrompt == nil {
		m.notice(p.Name + " is not available in this session")
		return nil
	}
	run, ctx := m.opts.RunMCPPrompt, m.ctx
	shown := strings.TrimSpace(p.Name + " " + arg)
	m.status.SetHint("asking the MCP server for " + p.Name + "…")
	return func() tea.Msg {
		text, images, err := run(ctx, strings.TrimPrefix(p.Name, "/"), arg)
		return mcpPromptMsg{shown: shown, text: text, images: images, err: err}
	}
}

// mcpPromptDone sends a prompt's text, its images attached, or shows why
// it could not be had.
func (m *Model) mcpPromptDone(msg mcpPromptMsg) tea.Cmd {
	m.status.SetHint("")
	if msg.err != nil {
		m.errorCard(common.Clean(msg.err.Error()))
		return nil
	}
	if strings.TrimSpace(msg.text) == "" && len(msg.images) == 0 {
		m.notice(msg.shown + " gave an empty prompt; nothing was sent")
		return nil
	}
	var files []attach.File
	for i := range msg.images {
		im := msg.images[i]
		files = append(files, attach.File{Path: "image from " + msg.shown, Image: &im, Label: im.Label()})
	}
	if len(files) > 0 {
		if err := m.session.ImagesRefused(); err != nil {
			m.notice("the prompt's images are left out: " + err.Error())
			files = nil
		}
	}
	return m.sendPrompt(msg.shown, msg.text, files)
}
