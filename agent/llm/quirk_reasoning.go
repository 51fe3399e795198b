package llm

// Reasoning ("thinking") text streams under two names: DeepSeek's API
// calls it reasoning_content; vLLM, Ollama, OpenRouter and LM Studio call
// it reasoning. vLLM in transition sent both with the same text, so a
// delta that has both counts once. keel shows it and stores it, and never
// sends it back (wire_request.go).
type reasoningFields struct {
	ReasoningContent string `json:"reasoning_content"`
	Reasoning        string `json:"reasoning"`
}

// reasoningText is the delta's reasoning, whichever field carried it.
func (r *reasoningFields) reasoningText() string {
	if r.ReasoningContent != "" {
		return r.ReasoningContent
	}
	return r.Reasoning
}
