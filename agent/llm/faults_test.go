package llm_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
)

func TestStreamFaults(t *testing.T) {
	tests := []struct {
		name       string
		round      llmtest.Round
		idle       time.Duration
		kind       llm.Kind
		anyRetry   bool // any retryable kind will do (the OS decides between reset and EOF)
		status     int
		retryAfter time.Duration
		msg        []string // fragments of Error()
	}{
		{name: "truncated after chunks", round: llmtest.Round{Text: "a long answer that gets cut", TextChunk: 4, TruncateAfter: 3},
			kind: llm.KindTruncated, msg: []string{"fake closed the stream before the answer was complete"}},
		{name: "truncated tool call", round: llmtest.Round{ToolCalls: []llmtest.Call{readCall}, ArgChunk: 1, TruncateAfter: 10},
			kind: llm.KindTruncated},
		{name: "connection reset mid-stream", round: llmtest.Round{Text: "abcdefgh", TextChunk: 1, ResetConnection: true, ResetAfter: 3},
			anyRetry: true},
		{name: "connection reset before response", round: llmtest.Round{ResetConnection: true}, anyRetry: true},
		{name: "idle hang mid-stream", round: llmtest.Round{Text: "abc", TextChunk: 1, Hang: true, HangAfter: 2},
			idle: 50 * time.Millisecond, kind: llm.KindIdle, msg: []string{"fake sent nothing for 50ms"}},
		{name: "idle before headers", round: llmtest.Round{Text: "late", Delay: time.Minute},
			idle: 50 * time.Millisecond, kind: llm.KindIdle},
		{name: "keep-alives then hang", round: llmtest.Round{Text: "x", KeepAlives: 5, Hang: true},
			idle: 50 * time.Millisecond, kind: llm.KindIdle, msg: []string{"fake sent only keep-alive comments for 50ms"}},
		// A proxy's keep-alives that never stop are not an answer: the
		// wait ends at the idle timeout (it hung forever before).
		{name: "endless keep-alives", round: llmtest.Round{Text: "x", Hang: true, KeepAliveEvery: 10 * time.Millisecond},
			idle: 300 * time.Millisecond, kind: llm.KindIdle, msg: []string{"fake sent only keep-alive comments for 300ms"}},
		{name: "keep-alives after a chunk then hang", round: llmtest.Round{Text: "abc", TextChunk: 1, Hang: true, HangAfter: 1, KeepAliveEvery: 10 * time.Millisecond},
			idle: 300 * time.Millisecond, kind: llm.KindIdle, msg: []string{"fake sent only keep-alive comments for 300ms"}},
		{name: "429 retry-after seconds", round: llmtest.RateLimitRound("12"),
			kind: llm.KindRateLimited, status: 429, retryAfter: 12 * time.Second, msg: []string{"fake rate-limited the request (HTTP 429)"}},
		{name: "429 without retry-after", round: llmtest.RateLimitRound(""), kind: llm.KindRateLimited, status: 429},
		{name: "429 insufficient quota", round: llmtest.Round{Status: 429, Body: `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`},
			kind: llm.KindBadRequest, status: 429, msg: []string{"You exceeded your current quota"}},
		{name: "500", round: llmtest.ErrorRound(500, "The server had an error"), kind: llm.KindTransient, status: 500,
			msg: []string{"fake failed (HTTP 500): The server had an error"}},
		{name: "502 html body", round: llmtest.Round{Status: 502, Body: "<html>Bad Gateway</html>"}, kind: llm.KindTransient, status: 502,
			msg: []string{"Bad Gateway"}},
		{name: "401", round: llmtest.ErrorRound(401, "Incorrect API key provided"), kind: llm.KindAuth, status: 401,
			msg: []string{"fake refused the API key", "set FAKE_API_KEY to a valid key"}},
		{name: "403", round: llmtest.Round{Status: 403}, kind: llm.KindAuth, status: 403, msg: []string{"FAKE_API_KEY"}},
		{name: "400 context length (OpenAI)", round: llmtest.ContextLengthRound(), kind: llm.KindContextLength, status: 400,
			msg: []string{"longer than fake's context window"}},
		{name: "400 other", round: llmtest.ErrorRound(400, "Invalid schema for function 'grep'"), kind: llm.KindBadRequest, status: 400,
			msg: []string{"fake rejected the request (HTTP 400): Invalid schema for function 'grep'"}},
		{name: "404 model", round: llmtest.ErrorRound(404, "The model `nope` does not exist"), kind: llm.KindBadRequest, status: 404,
			msg: []string{"does not exist"}},
		{name: "404 Ollama's string error", round: llmtest.Round{Status: 404, Body: `{"error":"model \"qwen3\" not found, try pulling it first"}`},
			kind: llm.KindBadRequest, status: 404, msg: []string{`fake rejected the request (HTTP 404): model "qwen3" not found, try pulling it first`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Rounds(tt.round))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard only
			defer cancel()
			_, err := client(srv, tt.idle).Stream(ctx, userRequest(), nil)
			if tt.anyRetry {
				if e := llm.Classify(err); e == nil || !e.Kind.Transient() {
					t.Fatalf("error %v is not retryable", err)
				}
				return
			}
			checkError(t, err, tt.kind, tt.status, tt.msg)
			if e := llm.Classify(err); e != nil && e.RetryAfter != tt.retryAfter {
				t.Errorf("RetryAfter = %v, want %v", e.RetryAfter, tt.retryAfter)
			}
		})
	}
}

func checkError(t *testing.T, err error, kind llm.Kind, status int, msg []string) {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *llm.Error", err, err)
	}
	if e.Kind != kind || e.Status != status {
		t.Errorf("kind %v status %d, want %v %d (%v)", e.Kind, e.Status, kind, status, err)
	}
	for _, m := range msg {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("message %q lacks %q", err.Error(), m)
		}
	}
}

// rawServer answers every request with status 200 and body.
func rawServer(t *testing.T, body string) string {
	return rawServerOf(t, "text/event-stream", body)
}

// rawServerOf answers every request with status 200, contentType and body.
func rawServerOf(t *testing.T, contentType, body string) string {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write([]byte(body))
	})
	ln, errL := net.Listen("tcp", "127.0.0.1:0")
	if errL != nil {
		t.Fatal(errL)
	}
	hs := &http.Server{Handler: h}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	return "http://" + ln.Addr().String() + "/v1"
}

func TestStreamErrorEventInStream(t *testing.T) {
	// vLLM and OpenRouter report failures as a data line after a 200.
	url := rawServer(t, `data: {"error":{"message":"This model's maximum context length is 4096 tokens","code":400}}`+"\n\n")
	_, err := llm.New(llm.Config{BaseURL: url, Name: "vllm"}).Stream(context.Background(), userRequest(), nil)
	checkError(t, err, llm.KindContextLength, 400, []string{"maximum context length is 4096"})
}

// A proxy that answers 200 with a JSON error body and no events: the
// error it holds is reported, not a truncated stream.
func TestStreamJSONErrorBodyWithStatus200(t *testing.T) {
	url := rawServer(t, "{\"error\": {\"message\": \"Invalid model name\", \"type\": \"invalid_request_error\"}}\n")
	_, err := llm.New(llm.Config{BaseURL: url, Name: "proxy"}).Stream(context.Background(), userRequest(), nil)
	checkError(t, err, llm.KindTransient, 0, []string{"Invalid model name"})
}

// A 200 whose body is no event stream (a web page: the base URL lacks
// its /v1, or names another server) is not retried as a cut stream; it
// says what came back and what to check.
func TestStreamThatIsNoStream(t *testing.T) {
	tests := []struct {
		name, contentType, body, want string
	}{
		{"web page", "text/html; charset=utf-8", "<html><body>Welcome to nginx</body></html>\n", "with text/html; charset=utf-8 and no event stream"},
		{"whole completion", "application/json", `{"id":"x","choices":[{"message":{"role":"assistant","content":"hi"}}]}` + "\n", "with application/json and no event stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := rawServerOf(t, tt.contentType, tt.body)
			_, err := llm.New(llm.Config{BaseURL: url, Name: "web"}).Stream(context.Background(), userRequest(), nil)
			checkError(t, err, llm.KindBadRequest, 0, []string{"web answered " + url + "/chat/completions " + tt.want, "OPENAI_BASE_URL"})
		})
	}
}

func TestStreamConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	c := llm.New(llm.Config{BaseURL: "http://" + addr + "/v1", Name: "local"})
	_, err = c.Stream(context.Background(), userRequest(), nil)
	checkError(t, err, llm.KindTransient, 0, []string{"the connection to local failed"})
}

func TestStreamCancelMidStream(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.Round{Text: "abc", TextChunk: 1, Hang: true, HangAfter: 2}))
	ctx, cancel := context.WithCancel(context.Background())
	// Cancel once the first text arrives: the stream is then mid-way and silent.
	_, err := client(srv, 0).Stream(ctx, userRequest(), func(d llm.Delta) {
		if d.Kind == llm.DeltaText {
			cancel()
		}
	})
	checkError(t, err, llm.KindCancelled, 0, []string{"cancelled"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v does not wrap context.Canceled", err)
	}
}
