package llm

import "strings"

// Each server words "the prompt is longer than the context window" its
// own way, and some send it as a plain 400; keel compacts the history on
// this error (KindContextLength) instead of giving up, so it is found by
// the phrases below in the message or code. A server whose wording is
// missing gets its phrase added here, with a test in classify_test.go.

// contextPhrases are lower-case fragments of the "prompt too long" errors of
// OpenAI, vLLM, Ollama, LM Studio, llama.cpp, DeepSeek and OpenRouter.
var contextPhrases = []string{
	"context_length_exceeded",
	"context length",
	"maximum context",
	"context window",
	"context size",
	"exceed_context_size",
	"maximum model length",
	"too many tokens",
	"prompt is too long",
	"prompt too long",
	"input is too long",
	"reduce the length of the messages",
}

// isContextLength reports whether a 4xx message says the prompt does not fit.
func isContextLength(msg string) bool {
	m := strings.ToLower(msg)
	for _, p := range contextPhrases {
		if strings.Contains(m, p) {
			return true
		}
	}
	return false
}
