package llm

// Usage arrives in different places: OpenAI sends it, when asked with
// stream_options.include_usage, in a last chunk of its own whose choices
// are empty; some servers put it in the finish chunk; some (older Ollama,
// llama.cpp's server without the option) never send it, and the Response
// says UsageKnown false. Whatever chunk carries it, the last one counts.
// Cached prompt tokens are prompt_tokens_details.cached_tokens at OpenAI
// and prompt_cache_hit_tokens at DeepSeek.
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
