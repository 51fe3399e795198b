package llm

import (
	"errors"
	"io"
	"testing"
)

// Each quirk file's wire samples, fed as the server sends them.

func TestQuirkReasoningFields(t *testing.T) {
	for _, tt := range []struct{ name, chunk, want string }{
		{"DeepSeek: reasoning_content", `{"choices":[{"delta":{"reasoning_content":"a"}}]}`, "a"},
		{"vLLM, Ollama, OpenRouter: reasoning", `{"choices":[{"delta":{"reasoning":"b"}}]}`, "b"},
		{"both with the same text count once", `{"choices":[{"delta":{"reasoning_content":"c","reasoning":"c","content":null}}]}`, "c"},
	} {
		a := newAccumulator(nil)
		feedAll(t, a, tt.chunk)
		if got := a.response().Reasoning; got != tt.want {
			t.Errorf("%s: reasoning %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestQuirkUsage(t *testing.T) {
	for _, tt := range []struct {
		name   string
		chunks []string
		want   Usage
		known  bool
	}{
		{"OpenAI: a usage-only chunk after the finish", []string{
			`{"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}],"usage":null}`,
			`{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":4}}}`,
		}, Usage{PromptTokens: 9, CompletionTokens: 2, CachedTokens: 4}, true},
		{"in the finish chunk", []string{
			`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1}}`,
		}, Usage{PromptTokens: 3, CompletionTokens: 1}, true},
		{"DeepSeek: prompt_cache_hit_tokens", []string{
			`{"choices":[],"usage":{"prompt_tokens":50,"completion_tokens":5,"prompt_cache_hit_tokens":40,"prompt_cache_miss_tokens":10}}`,
		}, Usage{PromptTokens: 50, CompletionTokens: 5, CachedTokens: 40}, true},
		{"the last usage counts", []string{
			`{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1}}`,
			`{"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":8}}`,
		}, Usage{PromptTokens: 7, CompletionTokens: 8}, true},
		{"never sent", []string{`{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}`}, Usage{}, false},
	} {
		a := newAccumulator(nil)
		feedAll(t, a, tt.chunks...)
		if r := a.response(); r.Usage != tt.want || r.UsageKnown != tt.known {
			t.Errorf("%s: usage %+v known %v, want %+v %v", tt.name, r.Usage, r.UsageKnown, tt.want, tt.known)
		}
	}
}

func TestQuirkStreamError(t *testing.T) {
	for _, tt := range []struct {
		name, chunk string
		status      int
		msg         string
	}{
		{"vLLM: the status as a number code", `{"error":{"message":"too long","code":400}}`, 400, "too long"},
		{"OpenRouter: the status as a string code", `{"error":{"message":"upstream","code":"502"}}`, 502, "upstream"},
		{"a code that is not a status", `{"error":{"message":"m","code":"server_error"}}`, 0, "m"},
		{"a plain string", `{"error":"model crashed"}`, 0, "model crashed"},
	} {
		err := newAccumulator(nil).feed([]byte(tt.chunk))
		var ae *apiError
		if !errors.As(err, &ae) || ae.Status != tt.status || ae.Message != tt.msg {
			t.Errorf("%s: %v (%+v), want status %d message %q", tt.name, err, ae, tt.status, tt.msg)
		}
	}
	if err := newAccumulator(nil).feed([]byte(`{"error":null,"choices":[]}`)); err != nil {
		t.Errorf(`"error": null is an ordinary chunk; got %v`, err)
	}
}

func TestQuirkErrorShapes(t *testing.T) {
	for _, tt := range []struct {
		name, body        string
		ok                bool
		msg, code, typeOf string
	}{
		{"OpenAI", `{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key","param":null}}`,
			true, "bad key", "invalid_api_key", "invalid_request_error"},
		{"Ollama: a string", `{"error":"model 'x' not found, try pulling it first"}`, true, "model 'x' not found, try pulling it first", "", ""},
		{"schema errors: a list of messages", `{"error":{"message":["a is required","b is not a string"],"type":"invalid_request_error"}}`,
			true, "a is required, b is not a string", "", "invalid_request_error"},
		{"vLLM: a number code", `{"error":{"message":"m","type":"BadRequestError","code":400}}`, true, "m", "400", "BadRequestError"},
		{"an HTML page", `<html>Bad Gateway</html>`, false, "", "", ""},
		{"JSON without error", `{"detail":"Not Found"}`, false, "", "", ""},
	} {
		e, ok := parseErrorBody([]byte(tt.body))
		if ok != tt.ok || ok && (e.Message != tt.msg || e.Code != tt.code || e.Type != tt.typeOf) {
			t.Errorf("%s: %+v %v, want %v %q %q %q", tt.name, e, ok, tt.ok, tt.msg, tt.code, tt.typeOf)
		}
	}
}

func TestQuirkTokenLimits(t *testing.T) {
	for _, tt := range []struct {
		model                  string
		maxTokens, completions int
	}{
		{"gpt-4.1", 100, 0}, {"o3-mini", 0, 100}, {"o1", 0, 100}, {"o4-mini", 0, 100}, {"gpt-5-codex", 0, 100},
		{"deepseek-chat", 100, 0}, {"qwen3-coder:30b", 100, 0}, {"", 100, 0},
	} {
		if m, c := tokenLimits(tt.model, 100); m != tt.maxTokens || c != tt.completions {
			t.Errorf("%q: max_tokens %d max_completion_tokens %d, want %d %d", tt.model, m, c, tt.maxTokens, tt.completions)
		}
	}
}

func TestQuirkNoDone(t *testing.T) {
	for _, tt := range []struct {
		name   string
		finish string
		done   bool
		err    error
		want   bool
	}{
		{"finish and [DONE]", "stop", true, io.EOF, true},
		{"[DONE] without finish_reason", "", true, io.EOF, true},
		{"finish, then the body ends", "stop", false, io.EOF, true},
		{"finish, then the connection closes mid-chunk", "tool_calls", false, io.ErrUnexpectedEOF, true},
		{"the body ends with neither", "", false, io.EOF, false},
		{"finish, then a reset", "stop", false, errors.New("connection reset by peer"), false},
	} {
		if got := answerComplete(tt.finish, tt.done, tt.err); got != tt.want {
			t.Errorf("%s: complete = %v, want %v", tt.name, got, tt.want)
		}
	}
}
