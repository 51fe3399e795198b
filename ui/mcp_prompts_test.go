package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/keel-dev/keel/tools"
)

func promptOptions(ran *[]string) Options {
	return Options{
		MCPPrompts: func() []MCPPrompt {
			return []MCPPrompt{{Name: "/ev:review", Desc: "review a file — /ev:review file=… [focus=…]"}, {Name: "/ev:broken", Desc: "fails"}}
		},
		RunMCPPrompt: func(_ context.Context, command, args string) (string, []tools.Image, error) {
			*ran = append(*ran, command+"|"+args)
			if command == "ev:broken" {
				return "", nil, errors.New("/ev:broken failed: the server said no")
			}
			return "Review " + args, nil, nil
		},
	}
}

// MCP prompts are slash commands: listed and completed after /, run with
// the words after them, their text sent as the prompt; a failure is an
// error card and sends nothing.
func TestMCPPromptSlashCommands(t *testing.T) {
	var ran []string
	m, srv := newLLMModel(t, 100, 30, promptOptions(&ran))
	typeText(m, "/ev:r")
	m.Update(press("tab"))
	if v := m.input.Value(); v != "/ev:review " {
		t.Fatalf("completion gave %q", v)
	}
	typeText(m, "main.go")
	_, cmd := m.Update(press("enter"))
	msg := cmd()
	_, cmd = m.Update(msg)
	if got := sentPrompt(t, srv, cmd); got != "Review main.go" {
		t.Errorf("sent %q", got)
	}
	if len(ran) != 1 || ran[0] != "ev:review|main.go" {
		t.Errorf("ran %v", ran)
	}
	if s := plain(m); !strings.Contains(s, "/ev:review main.go") {
		t.Errorf("the transcript does not show the command typed:\n%s", s)
	}

	m2, srv2 := newLLMModel(t, 100, 30, promptOptions(&ran))
	typeText(m2, "/ev:broken")
	_, cmd = m2.Update(press("enter"))
	m2.Update(cmd())
	if s := plain(m2); !strings.Contains(s, "the server said no") || len(srv2.Requests()) != 0 {
		t.Errorf("a failed prompt:\n%s", s)
	}
	m2.input.Clear()
	typeText(m2, "/e")
	m2.Update(press("tab"))
	if s := plain(m2); !strings.Contains(s, "/ev:review") || !strings.Contains(s, "review a file") || !strings.Contains(s, "/ev:broken") {
		t.Errorf("/ and tab do not list the prompts:\n%s", s)
	}
}
