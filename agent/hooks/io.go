package hooks

import (
	"encoding/json"
	"strings"
)

// Input is the JSON a hook reads on stdin: Claude Code's fields, those of
// the event only.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"` // keel keeps its transcript in the datalog: always ""
	Cwd            string `json:"cwd"`
	HookEventName  Event  `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode,omitempty"`

	ToolName     string          `json:"tool_name,omitempty"`     // PreToolUse, PostToolUse
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`    // the call's arguments
	ToolUseID    string          `json:"tool_use_id,omitempty"`   //
	ToolResponse *ToolResponse   `json:"tool_response,omitempty"` // PostToolUse

	Prompt             string `json:"prompt,omitempty"`           // UserPromptSubmit
	StopHookActive     *bool  `json:"stop_hook_active,omitempty"` // Stop, SubagentStop: a Stop hook already sent the model back once
	Source             string `json:"source,omitempty"`           // SessionStart: "startup" or "resume"
	Reason             string `json:"reason,omitempty"`           // SessionEnd
	Trigger            string `json:"trigger,omitempty"`          // PreCompact: "manual" or "auto"
	CustomInstructions string `json:"custom_instructions,omitempty"`
	Message            string `json:"message,omitempty"`    // Notification
	AgentName          string `json:"agent_name,omitempty"` // SubagentStop, and tool events of a subagent
}

// ToolResponse is a finished call's outcome, as PostToolUse hooks see it.
type ToolResponse struct {
	Output   string `json:"output"`
	IsError  bool   `json:"is_error"`
	ExitCode *int   `json:"exit_code,omitempty"`
}

// matchName is what an event's matchers are matched against.
func (in Input) matchName() string {
	switch in.HookEventName {
	case PreToolUse, PostToolUse:
		return in.ToolName
	case SessionStart:
		return in.Source
	case PreCompact:
		return in.Trigger
	}
	return ""
}

// Reply is the JSON a hook may print on stdout when it exits 0.
type Reply struct {
	Continue       *bool  `json:"continue,omitempty"`   // false: stop the task
	StopReason     string `json:"stopReason,omitempty"` // shown when continue is false
	SystemMessage  string `json:"systemMessage,omitempty"`
	SuppressOutput bool   `json:"suppressOutput,omitempty"`
	Decision       string `json:"decision,omitempty"` // "block" (or "approve", PreToolUse's old allow)
	Reason         string `json:"reason,omitempty"`

	Specific *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific is a reply's hookSpecificOutput.
type Specific struct {
	HookEventName            string `json:"hookEventName,omitempty"`
	PermissionDecision       string `json:"permissionDecision,omitempty"` // PreToolUse: "allow", "deny" or "ask"
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// parseReply reads stdout as a reply when it is one JSON object.
func parseReply(stdout string) *Reply {
	s := strings.TrimSpace(stdout)
	if !strings.HasPrefix(s, "{") {
		return nil
	}
	var r Reply
	if json.Unmarshal([]byte(s), &r) != nil {
		return nil
	}
	return &r
}
