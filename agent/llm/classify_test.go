package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"
)

func TestContextLengthPhrases(t *testing.T) {
	tests := []struct {
		server, msg string
	}{
		{"OpenAI", "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."},
		{"OpenAI code", "context_length_exceeded"},
		{"vLLM", "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion)."},
		{"vLLM decoder", "The decoder prompt (length 40000) is longer than the maximum model length of 32768."},
		{"Ollama", "input length exceeds the context length"},
		{"LM Studio", "Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens"},
		{"llama.cpp", "the request exceeds the available context size, try increasing it"},
		{"DeepSeek", "This model's maximum context length is 65536 tokens. However, you requested 70000 tokens."},
		{"OpenRouter", "This endpoint's maximum context length is 200000 tokens. However, you requested about 210000 tokens."},
		{"Anthropic-compatible", "prompt is too long: 210000 tokens > 200000 maximum"},
		{"generic", "Too many tokens in the request"},
		{"window", "the input exceeds the model's context window"},
	}
	for _, tt := range tests {
		t.Run(tt.server, func(t *testing.T) {
			err := &apiError{Status: 400, Message: tt.msg}
			if e := classify(err, callFacts{}); e.Kind != KindContextLength {
				t.Errorf("%q classified %v", tt.msg, e.Kind)
			}
		})
	}
	if e := classify(&apiError{Status: 400, Message: "messages[3]: tool_call_id not found"}, callFacts{}); e.Kind != KindBadRequest {
		t.Errorf("ordinary 400 classified %v", e.Kind)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		value string
		want  time.Duration
	}{
		{"", 0},
		{"12", 12 * time.Second},
		{"1.5", 1500 * time.Millisecond},
		{"-3", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
		{"soon", 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.value != "" {
			h.Set("Retry-After", tt.value)
		}
		if got := retryAfter(h, now); got != tt.want {
			t.Errorf("Retry-After %q = %v, want %v", tt.value, got, tt.want)
		}
	}
}

func TestClassifyGeneric(t *testing.T) {
	tests := []struct {
		err  error
		kind Kind
	}{
		{io.ErrUnexpectedEOF, KindTruncated},
		{fmt.Errorf("read: %w", context.DeadlineExceeded), KindTransient},
		{&apiError{Status: 503, Message: "upstream down"}, KindTransient},
		{&apiError{Status: 408}, KindTransient},
		{&Error{Kind: KindAuth}, KindAuth},
	}
	for _, tt := range tests {
		if got := Classify(tt.err); got.Kind != tt.kind {
			t.Errorf("Classify(%v) = %v, want %v", tt.err, got.Kind, tt.kind)
		}
	}
	if Classify(nil) != nil {
		t.Error("Classify(nil) != nil")
	}
	wrapped := fmt.Errorf("agent: %w", &Error{Kind: KindIdle, Err: io.EOF})
	if e := Classify(wrapped); e.Kind != KindIdle || !errors.Is(wrapped, io.EOF) {
		t.Errorf("wrapped *Error lost: %v", e)
	}
}

func TestErrorSentences(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{Kind: KindAuth, Status: 401, Provider: "deepseek", APIKeyEnv: "DEEPSEEK_API_KEY"},
			"deepseek refused the API key (HTTP 401): set DEEPSEEK_API_KEY to a valid key"},
		{Error{Kind: KindAuth, Status: 403, Provider: "local"}, "local refused the API key (HTTP 403): check the API key configured for it"},
		{Error{Kind: KindIdle, Provider: "ollama", Idle: 2 * time.Minute}, "ollama sent nothing for 2m0s, so the stream was abandoned"},
		{Error{Kind: KindCancelled, Provider: "openai"}, "the request to openai was cancelled"},
		{Error{Kind: KindBadRequest, Status: 400, Provider: "openai", Message: "bad schema"}, "openai rejected the request (HTTP 400): bad schema"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestKindString(t *testing.T) {
	if KindContextLength.String() != "context_length" || Kind(99).String() != "kind(99)" {
		t.Error("Kind.String")
	}
}
