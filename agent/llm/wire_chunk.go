package llm

import (
	"encoding/json"
	"fmt"
)

// chunk is one "chat.completion.chunk" of a streamed answer: the fields
// keel uses, with what quirk files add embedded (unknown fields are
// ignored).
type chunk struct {
	Choices          []chunkChoice `json:"choices"`
	Usage            *wireUsage    `json:"usage"` // quirk_usage.go
	streamErrorField               // quirk_stream_error.go
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason string     `json:"finish_reason"` // null decodes as ""
}

type chunkDelta struct {
	Content         string          `json:"content"` // null decodes as ""
	ToolCalls       []toolCallDelta `json:"tool_calls"`
	reasoningFields                 // quirk_reasoning.go
}

type toolCallDelta struct {
	Index    *int   `json:"index"` // nil when the server omits it (quirk_tool_call_index.go)
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// decodeChunk parses one data payload into c, which it resets first:
// encoding/json would decode into the stale elements of a reused slice.
func decodeChunk(raw []byte, c *chunk) error {
	*c = chunk{}
	if err := json.Unmarshal(raw, c); err != nil {
		return fmt.Errorf("decode stream chunk: %w", err)
	}
	return nil
}
