package llmtest

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Call is one tool call the fake model makes.
type Call struct {
	ID   string // "call_<n>" when empty
	Name string
	Args string // raw JSON text, sent in pieces of Round.ArgChunk bytes
}

// Usage is the token accounting a round reports.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	CachedTokens     int // sent as prompt_tokens_details.cached_tokens
}

// UsagePlacement says where a round's usage goes.
type UsagePlacement int

// Where usage is sent. The zero value is OpenAI's behaviour with
// stream_options.include_usage: a last chunk with empty choices.
const (
	UsageSeparateChunk UsagePlacement = iota // a chunk with "choices": [] after the finish chunk
	UsageInFinishChunk                       // in the same chunk as finish_reason
	UsageAbsent                              // never sent
)

// Quirks toggles the small ways real servers differ from OpenAI.
type Quirks struct {
	PlaceholderFirstChunk bool // a first chunk with "choices": [] (Azure's prompt filter results)
	EmptyToolCallsOnText  bool // "tool_calls": [] on text chunks
	NullContent           bool // "content": null on chunks without text
	OmitIndex             bool // tool-call deltas without "index"
	IDOnEveryChunk        bool // repeat the call id on every argument piece
	ExtraFields           bool // unknown fields at every level
	NoDone                bool // do not send "data: [DONE]" (the finish chunk still comes)
}

// Round is the fake model's answer to one request: either a scripted
// stream, or a fault. Zero values give a well-behaved OpenAI stream.
type Round struct {
	Text           string
	Reasoning      string
	ReasoningField string // "reasoning_content" (default) or "reasoning"
	ToolCalls      []Call
	TextChunk      int  // bytes per text/reasoning piece; 0 means 16
	ArgChunk       int  // bytes per argument piece; 0 means 8, 1 sends one byte at a time
	Interleave     bool // send the pieces of parallel calls round-robin
	FinishReason   string
	Usage          *Usage // nil: a default usage (unless Placement is UsageAbsent)
	Placement      UsagePlacement
	Quirks

	// Faults.
	Status             int         // non-zero: answer with this status and Body, no stream
	Headers            http.Header // extra response headers (e.g. Retry-After)
	Body               string      // error body; empty means an OpenAI-shaped error for Status
	Delay              time.Duration
	DelayBetweenChunks time.Duration
	// EndDelay holds the body's end (the chunked encoding's terminator)
	// this long after "data: [DONE]", as a server that closes its streams
	// late; a client that closes the body before its end loses the
	// connection.
	EndDelay   time.Duration
	KeepAlives int // SSE comment lines sent before the first chunk
	// KeepAliveEvery: while hanging, a keep-alive comment this often (a
	// proxy keeping an idle stream open); 0: none.
	KeepAliveEvery  time.Duration
	TruncateAfter   int  // >0: end the body after this many chunks, without finish or [DONE]
	Hang            bool // stop sending after HangAfter chunks and keep the connection open
	HangAfter       int
	ResetConnection bool // reset the TCP connection after ResetAfter chunks
	ResetAfter      int
}

// TextRound answers with plain text.
func TextRound(text string) Round { return Round{Text: text} }

// ToolRound answers with parallel tool calls.
func ToolRound(calls ...Call) Round { return Round{ToolCalls: calls} }

// ErrorRound answers with status and an OpenAI-shaped error carrying msg.
func ErrorRound(status int, msg string) Round {
	return Round{Status: status, Body: errorBody(msg, errorType(status), "")}
}

// RateLimitRound answers 429 with the given Retry-After value ("" for none).
func RateLimitRound(retryAfter string) Round {
	r := Round{Status: http.StatusTooManyRequests, Body: errorBody("Rate limit reached, please try again later.", "rate_limit_error", "rate_limit_exceeded")}
	if retryAfter != "" {
		r.Headers = http.Header{"Retry-After": {retryAfter}}
	}
	return r
}

// ContextLengthRound answers 400 exactly as OpenAI does when the prompt is
// longer than the context window.
func ContextLengthRound() Round {
	msg := "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages."
	return Round{Status: http.StatusBadRequest, Body: errorBody(msg, "invalid_request_error", "context_length_exceeded")}
}

func errorType(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return "authentication_error"
	case status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

// errorBody renders OpenAI's error JSON.
func errorBody(msg, typ, code string) string {
	c := "null"
	if code != "" {
		c = strconv.Quote(code)
	}
	return fmt.Sprintf(`{"error":{"message":%s,"type":%q,"param":null,"code":%s}}`, strconv.Quote(msg), typ, c)
}
