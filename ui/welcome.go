package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/keel-dev/keel/ui/common"
)

// welcomeSteps explains, on first run, how to configure a provider;
// configPath is the file keel config init writes ("" when unknown).
func welcomeSteps(configPath string) []struct{ head, body string } {
	if configPath == "" {
		configPath = "config.toml"
	}
	return []struct{ head, body string }{
		{"1. OpenAI (or any OpenAI-compatible service)", "export OPENAI_API_KEY=sk-…   then run keel again"},
		{"2. A local model with Ollama", "after ollama pull:   keel --provider ollama --model qwen2.5-coder"},
		{"3. A config file", "keel config init   writes a commented " + configPath + " to edit"},
	}
}

// welcomeKeysLine is the welcome screen's last hint, and what any other
// key shows.
const welcomeKeysLine = "ctrl+c twice quits · ctrl+l browses past sessions · ? lists the keys"

// welcomeKey handles a key on the welcome screen. Its keys are the demo,
// the help and the datalog browser; the input is not drawn there, so no
// key types into it (text typed blind would turn ? into a character).
func (m *Model) welcomeKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Demo):
		m.demoAsked = true
		return tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.help.show()
	case key.Matches(msg, m.keys.Log):
		if m.opts.DB == nil {
			m.status.setHint("no past sessions to browse: keel logs them once it has run a task")
			return nil
		}
		return m.openBrowser()
	default:
		m.status.setHint("keys: d runs the demo · ? lists the keys · ctrl+l past sessions")
	}
	return nil
}

// welcomeView is the first-run screen: no usable provider is configured.
func (m *Model) welcomeView() string {
	w := min(m.width-4, 76)
	st := m.st
	var lines []string
	add := func(style common.Styler, text string) {
		lines = append(lines, common.Wrap(style, text, w)...)
	}
	add(st.Title, "Welcome to keel")
	lines = append(lines, "")
	add(st.Status, "keel needs a language model to talk to, and none is configured yet. Pick one of three ways:")
	lines = append(lines, "")
	for _, t := range welcomeSteps(m.opts.ConfigPath) {
		add(st.Bold, t.head)
		body := common.Wrap(st.Accent, t.body, w-3)
		common.Indent(body, "   ")
		lines = append(append(lines, body...), "")
	}
	add(st.Bold, "Or look around first:")
	body := common.Wrap(st.Accent, "press d (or run keel --demo): a scripted model, no LLM and no key, shows everything keel does in a minute", w-3)
	common.Indent(body, "   ")
	lines = append(append(lines, body...), "")
	add(st.Dim, welcomeKeysLine)
	for i, l := range lines {
		lines[i] = common.Fit(l, w) // one block, left-aligned, centred as a whole
	}
	body2 := lipgloss.Place(m.width, m.height-1, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n"))
	return body2 + "\n" + m.welcomeFooter()
}

// welcomeFooter is the bottom row: the missing provider, and the hint a
// key left.
func (m *Model) welcomeFooter() string {
	text := "no provider configured"
	if m.status.hint != "" {
		text += " · " + m.status.hint
	}
	return m.st.Warn.Render(common.Fit(text, m.width))
}
