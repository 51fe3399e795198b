// Package welcome is the first-run screen, shown when no usable provider
// is configured: three ways to configure one (naming the config file keel
// config init writes), the demo, and the keys that work there. It is a
// view only: the root model handles the screen's keys (d runs the demo,
// ? the help, ctrl+l the datalog browser) and passes the hint a key left.
package welcome

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/theme"
)

// steps explains, on first run, how to configure a provider;
// configPath is the file keel config init writes ("" when unknown).
func steps(configPath string) []struct{ head, body string } {
	if configPath == "" {
		configPath = "config.toml"
	}
	return []struct{ head, body string }{
		{"1. OpenAI (or any OpenAI-compatible service)", "export OPENAI_API_KEY=sk-…   then run keel again\n" +
			"another service: export OPENAI_BASE_URL=https://host/v1 too"},
		{"2. A local model with Ollama", "after ollama pull:   keel --provider ollama --model qwen2.5-coder"},
		{"3. A config file", "keel config init   writes a commented " + configPath + " to edit"},
	}
}

// keysLine is the welcome screen's last line: the keys that work
// there.
const keysLine = "ctrl+c twice quits · ctrl+l browses past sessions · ? lists the keys"

// View is the screen, width × height: the steps centred, and the bottom
// row saying no provider is configured, with hint (the one a key left,
// "" for none).
func View(st theme.Styles, width, height int, configPath, hint string) string {
	w := min(width-4, 76)
	var lines []string
	add := func(style common.Styler, text string) {
		lines = append(lines, common.Wrap(style, text, w)...)
	}
	add(st.Title, "Welcome to keel")
	lines = append(lines, "")
	add(st.Status, "keel needs a language model to talk to, and none is configured yet. Pick one of three ways:")
	lines = append(lines, "")
	for _, t := range steps(configPath) {
		add(st.Bold, t.head)
		body := common.Wrap(st.Accent, t.body, w-3)
		common.Indent(body, "   ")
		lines = append(append(lines, body...), "")
	}
	add(st.Bold, "Or look around first:")
	body := common.Wrap(st.Accent, "press d (or run keel --demo): a scripted model, no LLM and no key, shows everything keel does in a minute", w-3)
	common.Indent(body, "   ")
	lines = append(append(lines, body...), "")
	add(st.Dim, keysLine)
	for i, l := range lines {
		lines[i] = common.Fit(l, w) // one block, left-aligned, centred as a whole
	}
	body2 := lipgloss.Place(width, height-1, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n"))
	return body2 + "\n" + footer(st, width, hint)
}

// footer is the bottom row: the missing provider, and the hint a key
// left.
func footer(st theme.Styles, width int, hint string) string {
	text := "no provider configured"
	if hint != "" {
		text += " · " + hint
	}
	return st.Warn.Render(common.Fit(text, width))
}
