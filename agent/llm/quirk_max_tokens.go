package llm

import "strings"

// OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 and later) reject
// max_tokens and take max_completion_tokens; every other server keel
// talks to reads max_tokens, and many ignore the newer name.
var completionTokenModels = []string{"o1", "o3", "o4", "gpt-5", "gpt-6"}

// tokenLimits returns the request's max_tokens and max_completion_tokens
// for model: one of them is max, the other 0.
func tokenLimits(model string, max int) (maxTokens, maxCompletionTokens int) {
	for _, p := range completionTokenModels {
		if strings.HasPrefix(model, p) {
			return 0, max
		}
	}
	return max, 0
}
