package headless

import (
	"encoding/json"

	"github.com/keel-dev/keel/agent/llm"
)

// The shapes below are Claude Code's stream-json messages (its Agent SDK's
// SDKSystemMessage, SDKAssistantMessage, SDKUserMessage and the content
// blocks of Anthropic's Messages API), so a script written for `claude -p
// --output-format stream-json` reads keel's stream unchanged.
// testdata/claude_code_stream.jsonl keeps the documented shapes they are
// checked against.

// Init is the stream's first line: {"type":"system","subtype":"init"}.
type Init struct {
	Type           string      `json:"type"`    // "system"
	Subtype        string      `json:"subtype"` // "init"
	SessionID      string      `json:"session_id"`
	UUID           string      `json:"uuid"`
	Cwd            string      `json:"cwd"`
	Model          string      `json:"model"`
	Tools          []string    `json:"tools"`
	MCPServers     []MCPServer `json:"mcp_servers"`
	PermissionMode string      `json:"permissionMode"` // "default", or "bypassPermissions" with --yolo
	APIKeySource   string      `json:"apiKeySource"`
	SlashCommands  []string    `json:"slash_commands"`
	OutputStyle    string      `json:"output_style"`
	// keel's own.
	KeelVersion string `json:"keel_version,omitempty"`
	Provider    string `json:"provider,omitempty"`
}

// MCPServer is an MCP server as the init line lists it.
type MCPServer struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

// Session is what the init line says about the session being run;
// cmd/keel fills it.
type Session struct {
	Cwd, Model, Provider, Version string
	Tools                         []string
	MCPServers                    []string
	Yolo                          bool
}

// Permission modes as Claude Code names them.
const (
	PermissionDefault = "default"
	PermissionBypass  = "bypassPermissions"
)

// newInit is the init line of a session.
func newInit(sessionID string, s Session) Init {
	in := Init{Type: "system", Subtype: "init", SessionID: sessionID, UUID: newUUID(), Cwd: s.Cwd, Model: s.Model,
		Tools: nonNil(s.Tools), MCPServers: []MCPServer{}, PermissionMode: PermissionDefault, APIKeySource: "none",
		SlashCommands: []string{}, OutputStyle: "default", KeelVersion: s.Version, Provider: s.Provider}
	if s.Yolo {
		in.PermissionMode = PermissionBypass
	}
	for _, n := range s.MCPServers {
		in.MCPServers = append(in.MCPServers, MCPServer{Name: n, Status: "pending"}) // started in the background
	}
	return in
}

// Message is an assistant or user line: {"type":"assistant","message":{...}}.
type Message struct {
	Type            string     `json:"type"` // "assistant" or "user"
	Message         APIMessage `json:"message"`
	ParentToolUseID *string    `json:"parent_tool_use_id"` // the task call a subagent's message belongs to; null for the session's own
	SessionID       string     `json:"session_id"`
	UUID            string     `json:"uuid"`
	// keel's own: the subagent that wrote it.
	Agent string `json:"agent,omitempty"`
}

// APIMessage is the message body in the Messages API's shape.
type APIMessage struct {
	ID           string         `json:"id,omitempty"`
	Type         string         `json:"type,omitempty"` // "message" for the assistant's
	Role         string         `json:"role"`
	Model        string         `json:"model,omitempty"`
	Content      []ContentBlock `json:"content"`
	StopReason   *string        `json:"stop_reason,omitempty"`
	StopSequence any            `json:"stop_sequence,omitempty"` // null in an assistant message, absent in a user one
	Usage        *Usage         `json:"usage,omitempty"`
}

// ContentBlock is one block: text, tool_use or tool_result.
type ContentBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`        // text
	ID        string          `json:"id,omitempty"`          // tool_use
	Name      string          `json:"name,omitempty"`        // tool_use
	Input     json.RawMessage `json:"input,omitempty"`       // tool_use: the arguments object
	ToolUseID string          `json:"tool_use_id,omitempty"` // tool_result
	Content   *string         `json:"content,omitempty"`     // tool_result: the output sent to the model
	IsError   *bool           `json:"is_error,omitempty"`    // tool_result
}

// Usage is token usage in the Messages API's terms: input_tokens are the
// prompt tokens not read from the provider's cache, so input_tokens +
// cache_read_input_tokens is the whole prompt, as Claude Code counts it.
// OpenAI-compatible servers report no cache writes: that field is 0.
type Usage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}

// usageOf converts keel's usage (prompt tokens including cached ones).
func usageOf(u llm.Usage) Usage {
	return Usage{InputTokens: max(u.PromptTokens-u.CachedTokens, 0), CacheReadInputTokens: u.CachedTokens, OutputTokens: u.CompletionTokens}
}

// stopReasonOf maps an OpenAI finish_reason to the Messages API's
// stop_reason.
func stopReasonOf(finish string) string {
	switch finish {
	case "stop", "":
		return "end_turn"
	case "tool_calls", "function_call":
		return "tool_use"
	case "length":
		return "max_tokens"
	}
	return finish
}

// toolInput is a call's arguments as a JSON object; arguments that are not
// one (the model's broken JSON) are kept as {"raw_arguments": text}.
func toolInput(args string) json.RawMessage {
	if args == "" {
		return json.RawMessage(`{}`)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) == nil && obj != nil {
		return json.RawMessage(args)
	}
	raw, _ := json.Marshal(map[string]string{"raw_arguments": args})
	return raw
}

func ptr[T any](v T) *T { return &v }

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
