package llm

import "strconv"

// Some servers (llama.cpp's, some Ollama versions) send tool calls
// without an id. Every tool result must name its call, so such a call
// gets one keel makes: call_keel_ and its position in the answer.
func callID(id string, position int) string {
	if id != "" {
		return id
	}
	return "call_keel_" + strconv.Itoa(position)
}
