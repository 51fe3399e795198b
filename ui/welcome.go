package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// welcomeText explains, on first run, how to configure a provider.
var welcomeText = []struct{ head, body string }{
	{"1. OpenAI (or any OpenAI-compatible service)", "export OPENAI_API_KEY=sk-…   then run keel again"},
	{"2. A local model with Ollama", "after ollama pull:   keel --provider ollama --model qwen2.5-coder"},
	{"3. A config file", "keel config init   writes a commented ~/.config/keel/config.toml to edit"},
}

// welcomeView is the first-run screen: no usable provider is configured.
func (m *Model) welcomeView() string {
	w := min(m.width-4, 76)
	st := m.st
	var lines []string
	add := func(style styleRenderer, text string) {
		lines = append(lines, wrapStyled(style, text, w)...)
	}
	add(st.Title, "Welcome to keel")
	lines = append(lines, "")
	add(st.Status, "keel needs a language model to talk to, and none is configured yet. Pick one of three ways:")
	lines = append(lines, "")
	for _, t := range welcomeText {
		add(st.Bold, t.head)
		body := wrapStyled(st.Accent, t.body, w-3)
		indent(body, "   ")
		lines = append(append(lines, body...), "")
	}
	add(st.Bold, "Or look around first:")
	body := wrapStyled(st.Accent, "press d (or run keel --demo): a scripted model, no LLM and no key, shows everything keel does in a minute", w-3)
	indent(body, "   ")
	lines = append(append(lines, body...), "")
	add(st.Dim, "ctrl+c twice quits · ctrl+l browses past sessions")
	for i, l := range lines {
		lines[i] = fitLine(l, w) // one block, left-aligned, centred as a whole
	}
	body2 := lipgloss.Place(m.width, m.height-1, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n"))
	return body2 + "\n" + st.Warn.Render(fitLine("no provider configured", m.width))
}
