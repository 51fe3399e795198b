package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/keel-dev/keel/tools"
)

// Prompt is one of a server's prompts, offered as the slash command
// /SERVER:PROMPT.
type Prompt struct {
	Server, Name string
	Command      string // "SERVER:PROMPT", without the slash
	Description  string
	Args         []PromptArg
}

// PromptArg is one argument of a prompt.
type PromptArg struct {
	Name, Description string
	Required          bool
}

// Usage is how to call the prompt: "/srv:review file=… [focus=…]".
func (p Prompt) Usage() string {
	parts := []string{"/" + p.Command}
	for _, a := range p.Args {
		if a.Required {
			parts = append(parts, a.Name+"=…")
		} else {
			parts = append(parts, "["+a.Name+"=…]")
		}
	}
	return strings.Join(parts, " ")
}

// Prompts are the prompts of every server that listed them, by server
// name then the server's order.
func (m *Manager) Prompts() []Prompt {
	var out []Prompt
	for _, s := range m.servers {
		s.mu.Lock()
		for _, p := range s.prompts {
			out = append(out, promptOf(s.cfg.Name, p))
		}
		s.mu.Unlock()
	}
	return out
}

func promptOf(server string, p *sdk.Prompt) Prompt {
	out := Prompt{Server: server, Name: p.Name, Command: PromptCommand(server, p.Name), Description: p.Description}
	if out.Description == "" {
		out.Description = p.Title
	}
	for _, a := range p.Arguments {
		if a != nil {
			out.Args = append(out.Args, PromptArg{Name: a.Name, Description: a.Description, Required: a.Required})
		}
	}
	return out
}

// Prompt finds a prompt by its command ("SERVER:PROMPT").
func (m *Manager) Prompt(command string) (Prompt, bool) {
	for _, p := range m.Prompts() {
		if p.Command == command {
			return p, true
		}
	}
	return Prompt{}, false
}

// PromptText is what a prompt gave: the text to send as the user's
// prompt, and the images in it.
type PromptText struct {
	Text   string
	Images []tools.Image
}

// GetPrompt runs a prompt with the arguments typed after its command
// (ParseArgs) and returns its messages as one prompt.
func (m *Manager) GetPrompt(ctx context.Context, command, argLine string) (PromptText, error) {
	p, ok := m.Prompt(command)
	if !ok {
		return PromptText{}, fmt.Errorf("no MCP server offers the prompt /%s", command)
	}
	args, err := ParseArgs(p, argLine)
	if err != nil {
		return PromptText{}, err
	}
	s := m.server(p.Server)
	l, err := s.ready(ctx)
	if err != nil {
		return PromptText{}, fmt.Errorf("the MCP server %q is not available: %w", p.Server, err)
	}
	cctx, cancel := within(ctx, s.cfg.CallTimeout)
	defer cancel()
	res, err := l.sess.GetPrompt(cctx, &sdk.GetPromptParams{Name: p.Name, Arguments: args})
	if err != nil {
		return PromptText{}, fmt.Errorf("/%s failed: %w", command, err)
	}
	return promptText(res), nil
}

// promptText joins a prompt's messages into one prompt; when it holds
// more than the user's words, each message is marked with its role.
func promptText(res *sdk.GetPromptResult) PromptText {
	var out PromptText
	roles := map[sdk.Role]bool{}
	for _, msg := range res.Messages {
		roles[msg.Role] = true
	}
	parts := make([]string, 0, len(res.Messages))
	for _, msg := range res.Messages {
		if msg == nil || msg.Content == nil {
			continue
		}
		t := contentText(msg.Content, &out.Images)
		if len(roles) > 1 {
			t = fmt.Sprintf("[%s]\n%s", msg.Role, t)
		}
		parts = append(parts, t)
	}
	out.Text = strings.Join(parts, "\n\n")
	return out
}

// ParseArgs maps the words typed after a prompt's command onto its
// arguments: NAME=VALUE sets one by name, other words fill the rest in
// order, and the last argument takes whatever words are left. Quotes
// group words ("New York"). A required argument left unset is an error
// that shows the usage.
func ParseArgs(p Prompt, line string) (map[string]string, error) {
	words, err := splitWords(line)
	if err != nil {
		return nil, fmt.Errorf("/%s: %w", p.Command, err)
	}
	args := map[string]string{}
	var positional []string
	for _, w := range words {
		if name, val, ok := strings.Cut(w, "="); ok && p.hasArg(name) {
			args[name] = val
			continue
		}
		positional = append(positional, w)
	}
	var free []string
	for _, a := range p.Args {
		if _, set := args[a.Name]; !set {
			free = append(free, a.Name)
		}
	}
	if len(positional) > 0 && len(free) == 0 {
		return nil, fmt.Errorf("/%s takes no more arguments (%s); usage: %s", p.Command, argNames(p), p.Usage())
	}
	for i, w := range positional {
		if i == len(free)-1 { // the last free argument takes the rest
			args[free[i]] = strings.Join(positional[i:], " ")
			break
		}
		args[free[i]] = w
	}
	for _, a := range p.Args {
		if _, set := args[a.Name]; a.Required && !set {
			return nil, fmt.Errorf("/%s needs %s; usage: %s", p.Command, a.Name, p.Usage())
		}
	}
	return args, nil
}

func (p Prompt) hasArg(name string) bool {
	for _, a := range p.Args {
		if a.Name == name {
			return true
		}
	}
	return false
}

// argNames lists a prompt's arguments for a message.
func argNames(p Prompt) string {
	if len(p.Args) == 0 {
		return "none"
	}
	names := make([]string, len(p.Args))
	for i, a := range p.Args {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// splitWords splits a line at spaces outside quotes; a backslash escapes
// the next character. An unclosed quote is an error.
func splitWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quote, escaped := false, rune(0), false
	for _, r := range line {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '"' || r == '\''):
			quote, inWord = r, true
		case quote == 0 && (r == ' ' || r == '\t' || r == '\n'):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a %c quote is not closed", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
