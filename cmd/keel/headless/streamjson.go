package headless

import "github.com/keel-dev/keel/agent"

// streamLine maps an event to its stream-json line, or nil for events
// headless consumers do not need. Names match the result object's.
func streamLine(ev agent.Event) any {
	type line = map[string]any
	switch e := ev.(type) {
	case agent.StateChanged:
		return line{"type": "state", "from": e.From, "to": e.To, "detail": e.Detail}
	case agent.TextDelta:
		return line{"type": "text", "text": e.Text}
	case agent.ReasoningDelta:
		return line{"type": "reasoning", "text": e.Text}
	case agent.AnswerRestarted:
		return line{"type": "answer_restarted", "reason": e.Reason}
	case agent.ToolStarted:
		return line{"type": "tool_call", "id": e.CallID, "tool": e.Name, "arguments": e.Args}
	case agent.ToolFinished:
		return line{"type": "tool_result", "id": e.CallID, "tool": e.Name, "is_error": e.IsError, "denied": e.Denied,
			"exit_code": e.ExitCode, "duration_ms": e.Duration.Milliseconds(), "output": e.Output}
	case agent.UsageUpdated:
		return line{"type": "usage", "input_tokens": e.Task.PromptTokens, "output_tokens": e.Task.CompletionTokens,
			"cached_tokens": e.Task.CachedTokens, "context_tokens": e.ContextTokens, "cost_usd": e.CostUSD}
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
	case agent.Notice:
		return line{"type": "notice", "text": e.Text}
	case agent.ReflectionRecorded:
		return line{"type": "reflection", "checkpoint": e.Seq, "status": e.Status, "reflection": e.Reflection}
	case agent.LessonsOffered:
		return line{"type": "lessons", "count": e.Count, "note": e.Note}
	case agent.NotesChanged:
		return line{"type": "notes", "notes": e.Notes, "evicted": e.Evicted}
	case agent.InternalError:
		return line{"type": "internal_error", "what": e.What}
	}
	return nil
}
