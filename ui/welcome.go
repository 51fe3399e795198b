package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// welcomeText explains, on first run, how to configure a provider.
var welcomeText = []struct{ head, body string }{
	{"1. OpenAI (or any OpenAI-compatible service)", "export OPENAI_API_KEY=sk-…   then run keel again"},
	{"2. A local model with Ollama", "ollama serve && ollama pull qwen2.5-coder   keel finds it on localhost:11434"},
	{"3. A config file", "keel config init   writes a commented keel.toml to edit"},
}

// welcomeView is the first-run screen: no usable provider is configured.
func (m *Model) welcomeView() string {
	w := min(m.width-4, 76)
	st := m.st
	lines := []string{
		st.Title.Render("Welcome to keel"),
		"",
		ansi.Wrap("keel needs a language model to talk to, and none is configured yet. Pick one of three ways:", w, ""),
		"",
	}
	for _, t := range welcomeText {
		lines = append(lines, st.Bold.Render(t.head))
		lines = append(lines, strings.Split(ansi.Wrap("   "+st.Accent.Render(t.body), w, ""), "\n")...)
		lines = append(lines, "")
	}
	lines = append(lines,
		st.Bold.Render("Or just look around first:"),
		"   "+st.Accent.Render("keel --demo")+"   a scripted model (no LLM, no key) shows everything keel does in a minute",
		"",
		st.Dim.Render("ctrl+c twice quits · ctrl+l browses past sessions"),
	)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	box := strings.Join(lines, "\n")
	status := m.status.view(m.st, m.r, m.width)
	body := lipgloss.Place(m.width, m.height-1, lipgloss.Center, lipgloss.Center, box)
	return body + "\n" + status
}
