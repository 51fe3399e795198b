package agent

// streamLine maps an event to its stream-json line, or nil for events
// headless consumers do not need. Names match the result object's.
func streamLine(ev Event) any {
	type line = map[string]any
	switch e := ev.(type) {
	case StateChanged:
		return line{"type": "state", "from": e.From, "to": e.To, "detail": e.Detail}
	case TextDelta:
		return line{"type": "text", "text": e.Text}
	case ReasoningDelta:
		return line{"type": "reasoning", "text": e.Text}
	case AnswerRestarted:
		return line{"type": "answer_restarted", "reason": e.Reason}
	case ToolStarted:
		return line{"type": "tool_call", "id": e.CallID, "tool": e.Name, "arguments": e.Args}
	case ToolFinished:
		return line{"type": "tool_result", "id": e.CallID, "tool": e.Name, "is_error": e.IsError, "denied": e.Denied,
			"exit_code": e.ExitCode, "duration_ms": e.Duration.Milliseconds(), "output": e.Output}
	case UsageUpdated:
		return line{"type": "usage", "input_tokens": e.Task.PromptTokens, "output_tokens": e.Task.CompletionTokens,
			"cached_tokens": e.Task.CachedTokens, "context_tokens": e.ContextTokens, "cost_usd": e.CostUSD}
	case InterventionFired:
		in := e.Intervention
		return line{"type": "intervention", "kind": in.Kind, "at_tool_call": in.AtToolCall, "message": in.Message, "why": in.Why}
	case PlanChanged:
		return line{"type": "plan", "plan": e.Plan}
	case RoundFinished:
		return line{"type": "round", "seq": e.Seq, "finish_reason": e.FinishReason,
			"first_token_ms": e.FirstToken.Milliseconds(), "duration_ms": e.Duration.Milliseconds()}
	case Retrying:
		return line{"type": "retry", "provider": e.Provider, "kind": e.Kind, "attempt": e.Attempt, "wait_ms": e.Wait.Milliseconds(), "error": e.Err}
	case Notice:
		return line{"type": "notice", "text": e.Text}
	}
	return nil
}
