package llm

import (
	"encoding/json"
	"fmt"
)

// chunk is our own decoding of one "chat.completion.chunk". go-openai's
// type drops the "reasoning" field of vLLM and Ollama, so we decode the few
// fields we use and ignore the rest (unknown fields are fine).
type chunk struct {
	Choices []chunkChoice `json:"choices"`
	Usage   *wireUsage    `json:"usage"`
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason string     `json:"finish_reason"` // null decodes as ""
}

type chunkDelta struct {
	Content          string          `json:"content"` // null decodes as ""
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

type toolCallDelta struct {
	Index    *int   `json:"index"` // nil when the server omits it
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"` // DeepSeek
}

func (u *wireUsage) usage() Usage {
	out := Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
	if u.PromptTokensDetails != nil {
		out.CachedTokens = u.PromptTokensDetails.CachedTokens
	}
	if out.CachedTokens == 0 {
		out.CachedTokens = u.PromptCacheHitTokens
	}
	return out
}

// decodeChunk parses one SSE data payload: fastDecodeChunk when it can,
// else encoding/json. c is reset first: encoding/json would decode into
// the stale elements of a reused slice.
func decodeChunk(raw []byte, c *chunk) error {
	if fastDecodeChunk(raw, c) {
		return nil
	}
	*c = chunk{}
	if err := json.Unmarshal(raw, c); err != nil {
		return fmt.Errorf("decode stream chunk: %w", err)
	}
	return nil
}
