package evaltest

import (
	"context"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
)

// Provider serves a Model in-process as an agent.Provider.
type Provider struct{ Model *Model }

var _ agent.Provider = (*Provider)(nil)

// Stream implements agent.Provider: the answer is decided from
// req.Messages and delivered whole. It never retries.
func (p *Provider) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta), _ func(agent.Retrying)) (llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	r := p.Model.Next(req.Messages)
	resp := llm.Response{Content: r.Text, FinishReason: "stop", Usage: usage(req.Messages, r), UsageKnown: true}
	if r.Text != "" && onDelta != nil {
		onDelta(llm.Delta{Kind: llm.DeltaText, Text: r.Text})
	}
	if calls := r.calls(); len(calls) > 0 {
		resp.ToolCalls, resp.FinishReason = calls, "tool_calls"
		for _, c := range calls {
			if onDelta != nil {
				onDelta(llm.Delta{Kind: llm.DeltaToolCall, ToolName: c.Name, Text: c.Arguments})
			}
		}
	}
	return resp, nil
}

// Handler serves a Model over HTTP: an llmtest.Script handler for the
// fake chat-completions server, for tests of the real binary.
func Handler(m *Model) func(llmtest.RecordedRequest, int) llmtest.Round {
	return func(req llmtest.RecordedRequest, _ int) llmtest.Round {
		msgs := messages(req.Messages)
		r := m.Next(msgs)
		u := usage(msgs, r)
		round := llmtest.Round{Text: r.Text, Usage: &llmtest.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}}
		for _, c := range r.calls() {
			round.ToolCalls = append(round.ToolCalls, llmtest.Call{ID: c.ID, Name: c.Name, Args: c.Arguments})
		}
		return round
	}
}

// messages converts a recorded request's messages.
func messages(rec []llmtest.RecordedMessage) []llm.Message {
	out := make([]llm.Message, 0, len(rec))
	for _, m := range rec {
		msg := llm.Message{Role: llm.Role(m.Role), Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name}
		for _, c := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Args})
		}
		out = append(out, msg)
	}
	return out
}

// usage estimates tokens at four bytes a token, as a provider would count
// them, so longer conversations cost more.
func usage(msgs []llm.Message, r Reply) llm.Usage {
	in := 0
	for _, m := range msgs {
		in += len(m.Content) + 16
		for _, c := range m.ToolCalls {
			in += len(c.Name) + len(c.Arguments)
		}
	}
	out := len(r.Text)
	for _, c := range r.calls() {
		out += len(c.Name) + len(c.Arguments) + 8
	}
	return llm.Usage{PromptTokens: in / 4, CompletionTokens: out/4 + 1}
}
