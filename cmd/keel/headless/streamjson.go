package headless

import (
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/keel-dev/keel/agent"
)

// streamer turns a task's events into stream-json lines: Claude Code's
// messages (assistant and user lines, stream_event deltas when partial
// messages are asked for), and keel's own events as further types such
// scripts ignore. Every line carries the session id.
type streamer struct {
	sessionID string
	model     string
	partial   bool // --include-partial-messages: text deltas as stream_event lines
}

type line = map[string]any

// lines maps one event to the lines it is written as (none for the
// events a headless consumer does not need).
func (st *streamer) lines(ev agent.Event) []any {
	switch e := ev.(type) {
	case agent.AssistantMessage:
		return []any{st.assistant(e, nil, "")}
	case agent.ToolFinished:
		return []any{st.toolResult(e, nil, ""), st.keel(toolFinishedLine(e))}
	case agent.ToolProgress:
		return []any{st.keel(toolProgressLine(e))}
	case agent.TextDelta, agent.ReasoningDelta:
		if st.partial {
			return []any{st.delta(ev)}
		}
		return nil
	case agent.SubagentEvent:
		return st.child(e)
	}
	if l := keelLine(ev); l != nil {
		return []any{st.keel(l)}
	}
	return nil
}

// assistant is a round's answer as an assistant message: its text, then
// a tool_use block per call.
func (st *streamer) assistant(e agent.AssistantMessage, parent *string, agentName string) Message {
	blocks := []ContentBlock{}
	if e.Content != "" {
		blocks = append(blocks, ContentBlock{Type: "text", Text: ptr(e.Content)})
	}
	for _, c := range e.ToolCalls {
		blocks = append(blocks, ContentBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: toolInput(c.Arguments)})
	}
	u := usageOf(e.Usage)
	return Message{Type: "assistant", SessionID: st.sessionID, UUID: newUUID(), ParentToolUseID: parent, Agent: agentName,
		Message: APIMessage{ID: fmt.Sprintf("msg_%s_%d", st.sessionID, e.Round), Type: "message", Role: "assistant", Model: st.model,
			Content: blocks, StopReason: ptr(stopReasonOf(e.FinishReason)), StopSequence: json.RawMessage("null"), Usage: &u}}
}

// toolResult is a call's outcome as a user message with one tool_result
// block, as the model received it.
func (st *streamer) toolResult(e agent.ToolFinished, parent *string, agentName string) Message {
	block := ContentBlock{Type: "tool_result", ToolUseID: e.CallID, Content: ptr(e.Output), IsError: ptr(e.IsError)}
	return Message{Type: "user", SessionID: st.sessionID, UUID: newUUID(), ParentToolUseID: parent, Agent: agentName,
		Message: APIMessage{Role: "user", Content: []ContentBlock{block}}}
}

// delta is a piece of streamed text as Claude Code's partial messages
// carry it (a content_block_delta stream_event).
func (st *streamer) delta(ev agent.Event) line {
	d := line{"type": "text_delta"}
	switch e := ev.(type) {
	case agent.TextDelta:
		d["text"] = e.Text
	case agent.ReasoningDelta:
		d = line{"type": "thinking_delta", "thinking": e.Text}
	}
	return line{"type": "stream_event", "session_id": st.sessionID, "uuid": newUUID(), "parent_tool_use_id": nil,
		"event": line{"type": "content_block_delta", "index": 0, "delta": d}}
}

// child maps a subagent's event: its messages as Claude Code writes a
// subagent's, with parent_tool_use_id set to the task call; its other
// events as keel's lines with agent and parent_tool_use_id.
func (st *streamer) child(e agent.SubagentEvent) []any {
	parent := ptr(e.CallID)
	switch in := e.Event.(type) {
	case agent.AssistantMessage:
		return []any{st.assistant(in, parent, e.Agent)}
	case agent.ToolFinished:
		return []any{st.toolResult(in, parent, e.Agent), st.keel(withParent(toolFinishedLine(in), e))}
	}
	if l := keelLine(e.Event); l != nil {
		return []any{st.keel(withParent(l, e))}
	}
	return nil
}

func withParent(l line, e agent.SubagentEvent) line {
	l["agent"], l["parent_tool_use_id"] = e.Agent, e.CallID
	return l
}

// keel stamps one of keel's own lines with the session id.
func (st *streamer) keel(l line) line {
	l["session_id"] = st.sessionID
	return l
}

func toolFinishedLine(e agent.ToolFinished) line {
	l := line{"type": "tool_finished", "tool_use_id": e.CallID, "name": e.Name, "is_error": e.IsError, "denied": e.Denied,
		"exit_code": e.ExitCode, "duration_ms": e.Duration.Milliseconds()}
	if len(e.Images) > 0 {
		imgs := make([]line, len(e.Images))
		for i, im := range e.Images {
			imgs[i] = line{"media_type": im.MIME, "width": im.Width, "height": im.Height, "sha256": im.SHA256()}
		}
		l["images"] = imgs
	}
	return l
}

// toolProgressLine is a running call's progress report, as Claude Code's
// tool_progress messages name the call, with MCP's figures: progress,
// total (absent when unknown) and message.
func toolProgressLine(e agent.ToolProgress) line {
	l := line{"type": "tool_progress", "tool_use_id": e.CallID, "tool_name": e.Name, "parent_tool_use_id": nil,
		"uuid": newUUID(), "progress": e.Progress.Progress}
	if e.Progress.Total > 0 {
		l["total"] = e.Progress.Total
	}
	if e.Progress.Message != "" {
		l["message"] = e.Progress.Message
	}
	return l
}

// keelLine maps keel's own events to lines of types Claude Code does not
// use; names match the result object's.
func keelLine(ev agent.Event) line {
	switch e := ev.(type) {
	case agent.StateChanged:
		return line{"type": "state", "from": e.From, "to": e.To, "detail": e.Detail}
	case agent.AnswerRestarted:
		return line{"type": "answer_restarted", "reason": e.Reason}
	case agent.UsageUpdated:
		return line{"type": "usage", "usage": usageOf(e.Task), "context_tokens": e.ContextTokens, "cost_usd": e.CostUSD}
	case agent.InterventionFired:
		in := e.Intervention
		return line{"type": "intervention", "kind": in.Kind, "at_tool_call": in.AtToolCall, "message": in.Message, "why": in.Why}
	case agent.PlanChanged:
		return line{"type": "plan", "plan": e.Plan}
	case agent.RoundFinished:
		return line{"type": "round", "seq": e.Seq, "finish_reason": e.FinishReason,
			"first_token_ms": e.FirstToken.Milliseconds(), "duration_ms": e.Duration.Milliseconds()}
	case agent.Retrying:
		return line{"type": "retry", "provider": e.Provider, "kind": e.Kind, "attempt": e.Attempt, "wait_ms": e.Wait.Milliseconds(), "error": e.Err}
	case agent.ProviderSilent:
		return line{"type": "silence", "provider": e.Provider, "quiet_ms": e.Quiet.Milliseconds(), "timeout_ms": e.Timeout.Milliseconds()}
	case agent.Notice:
		return line{"type": "notice", "text": e.Text}
	case agent.DatalogHealth:
		return line{"type": "datalog", "ok": e.OK, "text": e.Text}
	case agent.ReflectionRecorded:
		return line{"type": "reflection", "checkpoint": e.Seq, "status": e.Status, "reflection": e.Reflection}
	case agent.LessonsOffered:
		return line{"type": "lessons", "count": e.Count, "note": e.Note}
	case agent.NotesChanged:
		return line{"type": "notes", "notes": e.Notes, "evicted": e.Evicted}
	case agent.InternalError:
		return line{"type": "internal_error", "what": e.What}
	case agent.JobChanged:
		j := e.Job
		return line{"type": "job", "job_id": j.ID, "command": j.Command, "running": j.Running, "exit_code": j.ExitCode,
			"stopped_by": j.StoppedBy, "output_bytes": j.OutputBytes, "running_jobs": e.Running}
	case agent.HookRan:
		return hookLine(e)
	case agent.SubagentStarted:
		return line{"type": "subagent_started", "tool_use_id": e.CallID, "agent": e.Agent, "description": e.Description,
			"tools": e.Tools, "child_session_id": e.SessionID}
	case agent.SubagentFinished:
		return line{"type": "subagent_finished", "tool_use_id": e.CallID, "agent": e.Agent, "stop_reason": e.Reason,
			"message": e.Message, "result": e.Result, "num_turns": e.Summary.Turns, "tool_calls": e.Summary.ToolCalls,
			"usage": usageOf(e.Summary.Usage), "cost_usd": e.CostUSD, "duration_ms": e.Summary.Duration.Milliseconds(), "child_session_id": e.SessionID}
	}
	return nil
}

func newUUID() string { return uuid.NewString() }
