package transcript

import (
	"strings"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/ui/common"
)

// LoadHistory fills the transcript from a resumed session's history: user
// prompts, answers and tool calls (outcomes as far as the history tells).
func (t *Model) LoadHistory(hist []llm.Message) {
	results := map[string]llm.Message{}
	for _, msg := range hist {
		if msg.Role == llm.RoleTool {
			results[msg.ToolCallID] = msg
		}
	}
	for _, msg := range hist {
		switch msg.Role {
		case llm.RoleUser:
			t.addLoggedPrompt(msg.Content)
		case llm.RoleAssistant:
			t.historyAssistant(msg, results)
		}
	}
}

func (t *Model) historyAssistant(msg llm.Message, results map[string]llm.Message) {
	if strings.TrimSpace(msg.Reasoning) != "" {
		t.add(&Entry{kind: kindReasoning, text: msg.Reasoning})
	}
	if strings.TrimSpace(msg.Content) != "" {
		t.add(&Entry{kind: kindAssistant, text: msg.Content})
	}
	for _, c := range msg.ToolCalls {
		tc := &toolCall{id: c.ID, name: common.Clean(c.Name), args: common.Clean(c.Arguments), state: toolOK}
		if r, ok := results[c.ID]; ok {
			tc.output, tc.images = common.Clean(r.Content), historyImageLabels(r.Images)
		}
		t.add(&Entry{kind: kindTool, tool: tc})
	}
}
