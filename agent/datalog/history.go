package datalog

import (
	"encoding/json"

	"github.com/keel-dev/keel/agent/llm"
)

// InterruptedResult is the tool result given on resume to a tool call
// whose result was never recorded.
const InterruptedResult = "interrupted: keel stopped before this tool call finished"

// closeInterrupted adds a tool message for every assistant tool call not
// answered in the run of tool messages that follows it. The added
// messages have Seq 0 and no stored JSON of their own.
func closeInterrupted(msgs []Message) []Message {
	var out []Message
	for i := 0; i < len(msgs); i++ {
		out = append(out, msgs[i])
		calls := msgs[i].Msg.ToolCalls
		if msgs[i].Msg.Role != llm.RoleAssistant || len(calls) == 0 {
			continue
		}
		answered := map[string]bool{}
		for i+1 < len(msgs) && msgs[i+1].Msg.Role == llm.RoleTool {
			i++
			answered[msgs[i].Msg.ToolCallID] = true
			out = append(out, msgs[i])
		}
		for _, c := range calls {
			if !answered[c.ID] {
				out = append(out, syntheticResult(msgs[i], c))
			}
		}
	}
	return out
}

func syntheticResult(prev Message, c llm.ToolCall) Message {
	m := llm.Message{Role: llm.RoleTool, Content: InterruptedResult, ToolCallID: c.ID, Name: c.Name}
	b, _ := json.Marshal(m)
	return Message{SessionID: prev.SessionID, Round: prev.Round, Epoch: prev.Epoch, JSON: b, Msg: m}
}

func llmMessages(msgs []Message) []llm.Message {
	out := make([]llm.Message, len(msgs))
	for i, m := range msgs {
		out[i] = m.Msg
	}
	return out
}
