package llm

import (
	"encoding/json"
	"time"
)

// Role names the author of a Message, as on the wire.
type Role string

// The roles keel sends.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of the conversation history, in the shape the
// OpenAI chat-completions API expects. It is also what the datalog stores,
// so a resumed session rebuilds a byte-identical request.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content"`
	Reasoning  string     `json:"reasoning,omitempty"` // kept for display and the datalog; never sent back
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`   // tool name on RoleTool messages
	Images     []Image    `json:"images,omitempty"` // wire_image.go: sent as content parts
}

// ToolCall is one complete call the model asked for. Arguments is the raw
// JSON text as the model wrote it; it may be invalid and is checked by the agent.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolDef describes a tool to the model.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"` // a JSON schema object
}

// Request is one chat-completion request.
type Request struct {
	Model           string
	Messages        []Message
	Tools           []ToolDef
	MaxOutputTokens int  // 0: let the server decide
	Capture         bool // keep the raw request and response bodies (datalog.capture_bodies)
	// BeforeSend, when set, runs after the request's body is built and
	// before it is sent, on every attempt: the agent waits there for the
	// last round's commit.
	BeforeSend func()
	// OnSilence, when set, is told when the server has sent nothing for a
	// while (Silence.Quiet > 0) and again when bytes flow after that
	// (Quiet == 0), on every attempt; it may run on another goroutine.
	OnSilence func(Silence)
}

// Silence reports a server that has been quiet mid-call, so the user sees
// who keel waits for and until when.
type Silence struct {
	Provider string        // Config.Name of the client waiting
	Quiet    time.Duration // how long nothing has arrived; 0: bytes flow again
	Timeout  time.Duration // when the call is abandoned (Config.IdleTimeout)
}

// Usage is the token accounting of one response.
type Usage struct {
	PromptTokens     int `json:"input_tokens"`
	CompletionTokens int `json:"output_tokens"`
	CachedTokens     int `json:"cached_tokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		CachedTokens:     u.CachedTokens + o.CachedTokens,
	}
}

// DeltaKind says what a Delta carries.
type DeltaKind int

// The kinds of streamed increments.
const (
	DeltaText      DeltaKind = iota // assistant text
	DeltaReasoning                  // reasoning / thinking text
	DeltaToolCall                   // progress on a tool call: its name, or more argument bytes
)

// Delta is one streamed increment, forwarded to the UI as it arrives.
type Delta struct {
	Kind      DeltaKind
	Text      string // text or reasoning piece, or the argument bytes just received
	ToolIndex int    // for DeltaToolCall: position of the call in this response
	ToolName  string // for DeltaToolCall: the call's name once known
}

// Response is a finished, accumulated answer.
type Response struct {
	Content      string
	Reasoning    string
	ToolCalls    []ToolCall
	FinishReason string // "stop", "tool_calls", "length", ...
	Usage        Usage
	UsageKnown   bool          // false when the server sent no usage
	FirstToken   time.Duration // time from request start to the first delta
	Duration     time.Duration // time from request start to the end of the stream
	// With Request.Capture: the JSON body sent and the stream's data
	// payloads, one per line.
	RequestBody, ResponseBody []byte
}
