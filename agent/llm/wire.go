package llm

import (
	"encoding/json"
	"errors"

	openai "github.com/sashabaranov/go-openai"
)

// wireRequest converts a Request to go-openai's type. It is linear in the
// history: one pass, one allocation for the message slice.
func wireRequest(req Request) openai.ChatCompletionRequest {
	w := openai.ChatCompletionRequest{
		Model:         req.Model,
		Messages:      wireMessages(req.Messages),
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
		MaxTokens:     req.MaxOutputTokens,
	}
	if len(req.Tools) > 0 {
		w.Tools = wireTools(req.Tools)
	}
	// o1/o3/o4/gpt-5 reject max_tokens; go-openai validates that locally.
	if w.MaxTokens > 0 && errors.Is(openai.NewReasoningValidator().Validate(w), openai.ErrReasoningModelMaxTokensDeprecated) {
		w.MaxCompletionTokens, w.MaxTokens = w.MaxTokens, 0
	}
	return w
}

// wireMessages converts the history. Reasoning is never sent back (servers
// reject or bill it); an assistant message with tool calls and no text goes
// out without "content", which every server we target accepts.
func wireMessages(ms []Message) []openai.ChatCompletionMessage {
	out := make([]openai.ChatCompletionMessage, len(ms))
	for i := range ms {
		m := &ms[i]
		w := &out[i]
		w.Role = string(m.Role)
		w.Content = m.Content
		w.ToolCallID = m.ToolCallID
		w.Name = m.Name
		if len(m.ToolCalls) > 0 {
			w.ToolCalls = make([]openai.ToolCall, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				w.ToolCalls[j] = openai.ToolCall{
					ID:       c.ID,
					Type:     openai.ToolTypeFunction,
					Function: openai.FunctionCall{Name: c.Name, Arguments: c.Arguments},
				}
			}
		}
	}
	return out
}

func wireTools(ts []ToolDef) []openai.Tool {
	out := make([]openai.Tool, len(ts))
	for i, t := range ts {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out[i] = openai.Tool{
			Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{
				Name:        t.Name,
				Description: t.Description,
				Parameters:  params,
			},
		}
	}
	return out
}
