package ui

import (
	"strings"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
)

// loadHistory fills the transcript from a resumed session's history: user
// prompts, answers and tool calls (outcomes as far as the history tells).
func (m *Model) loadHistory(s *agent.Session) {
	hist := s.History()
	results := map[string]llm.Message{}
	for _, msg := range hist {
		if msg.Role == llm.RoleTool {
			results[msg.ToolCallID] = msg
		}
	}
	for _, msg := range hist {
		switch msg.Role {
		case llm.RoleUser:
			m.tr.add(&entry{kind: kindUser, text: msg.Content})
		case llm.RoleAssistant:
			m.historyAssistant(msg, results)
		}
	}
}

func (m *Model) historyAssistant(msg llm.Message, results map[string]llm.Message) {
	if strings.TrimSpace(msg.Reasoning) != "" {
		m.tr.add(&entry{kind: kindReasoning, text: msg.Reasoning})
	}
	if strings.TrimSpace(msg.Content) != "" {
		m.tr.add(&entry{kind: kindAssistant, text: msg.Content})
	}
	for _, c := range msg.ToolCalls {
		t := &toolCall{id: c.ID, name: clean(c.Name), args: clean(c.Arguments), state: toolOK}
		if r, ok := results[c.ID]; ok {
			t.output = clean(r.Content)
		}
		m.tr.add(&entry{kind: kindTool, tool: t})
	}
}

// rebuildInput remakes the input with new styles, keeping what was typed.
func rebuildInput(old input, st Styles) input {
	in := newInput(st)
	in.history, in.hpos, in.draft, in.pastes = old.history, old.hpos, old.draft, old.pastes
	in.ta.SetValue(old.ta.Value())
	return in
}
