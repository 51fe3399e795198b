package agent

import "github.com/keel-dev/keel/agent/llm"

// closeDangling returns hist with a tool result appended for every call
// of the last assistant message that has none. It changes nothing when
// every call has its result.
func closeDangling(hist []llm.Message, text string) []llm.Message {
	last := -1
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role == llm.RoleAssistant {
			last = i
			break
		}
	}
	if last < 0 || len(hist[last].ToolCalls) == 0 {
		return hist
	}
	answered := make(map[string]bool)
	for _, m := range hist[last+1:] {
		if m.Role == llm.RoleTool {
			answered[m.ToolCallID] = true
		}
	}
	for _, c := range hist[last].ToolCalls {
		if !answered[c.ID] {
			hist = append(hist, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: text})
		}
	}
	return hist
}
