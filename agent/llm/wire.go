//lint:file-ignore SA1019 max_tokens is what most OpenAI-compatible servers read; reasoning models get max_completion_tokens

package llm

import (
	"errors"

	openai "github.com/sashabaranov/go-openai"
)

// openaiRequest is the request handed to go-openai. Its messages stay
// empty: the body comes from encodeCache and replaces go-openai's in the
// transport (see encode.go). go-openai still checks the model and the
// token fields, so they are set here.
func openaiRequest(model string, maxOut int) openai.ChatCompletionRequest {
	w := openai.ChatCompletionRequest{
		Model:         model,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
		MaxTokens:     maxOut,
	}
	// o1/o3/o4/gpt-5 reject max_tokens; go-openai knows which models.
	if w.MaxTokens > 0 && errors.Is(openai.NewReasoningValidator().Validate(w), openai.ErrReasoningModelMaxTokensDeprecated) {
		w.MaxCompletionTokens, w.MaxTokens = w.MaxTokens, 0
	}
	return w
}
