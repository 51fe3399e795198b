package llm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
)

// client returns an llm.Client for srv.
func client(srv *llmtest.Server, idle time.Duration) *llm.Client {
	return llm.New(llm.Config{
		BaseURL: srv.URL(), APIKey: "test-key", Model: "fake-model",
		IdleTimeout: idle, Name: "fake", APIKeyEnv: "FAKE_API_KEY",
	})
}

func userRequest() llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hello"}}}
}

var (
	readCall = llmtest.Call{ID: "call_a", Name: "read_file", Args: `{"path":"main.go","offset":10,"limit":200}`}
	grepCall = llmtest.Call{ID: "call_b", Name: "grep", Args: `{"pattern":"func \"main\"","glob":"**/*.go"}`}
	utf8Call = llmtest.Call{ID: "call_c", Name: "write", Args: `{"text":"héllo wörld ✓ 日本"}`}
)

func TestStreamQuirks(t *testing.T) {
	calls := []llm.ToolCall{
		{ID: "call_a", Name: "read_file", Arguments: readCall.Args},
		{ID: "call_b", Name: "grep", Arguments: grepCall.Args},
	}
	tests := []struct {
		name      string
		round     llmtest.Round
		content   string
		reasoning string
		calls     []llm.ToolCall
		finish    string
		usage     *llm.Usage // nil: expect UsageKnown == false
	}{
		{name: "plain text", round: llmtest.TextRound("Hello there, this is a longer answer."),
			content: "Hello there, this is a longer answer.", finish: "stop", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "one-char args", round: llmtest.Round{ToolCalls: []llmtest.Call{readCall}, ArgChunk: 1},
			calls: calls[:1], finish: "tool_calls", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "utf8 args split by rune", round: llmtest.Round{ToolCalls: []llmtest.Call{utf8Call}, ArgChunk: 1},
			calls: []llm.ToolCall{{ID: "call_c", Name: "write", Arguments: utf8Call.Args}}, finish: "tool_calls", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "parallel calls", round: llmtest.Round{ToolCalls: []llmtest.Call{readCall, grepCall}, ArgChunk: 3},
			calls: calls, finish: "tool_calls", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "interleaved parallel calls", round: llmtest.Round{ToolCalls: []llmtest.Call{readCall, grepCall}, ArgChunk: 2, Interleave: true},
			calls: calls, finish: "tool_calls", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "missing index, sequential calls", round: llmtest.Round{ToolCalls: []llmtest.Call{readCall, grepCall}, ArgChunk: 1,
			Quirks: llmtest.Quirks{OmitIndex: true}}, calls: calls, finish: "tool_calls", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "missing index, interleaved, id on every chunk", round: llmtest.Round{ToolCalls: []llmtest.Call{readCall, grepCall}, ArgChunk: 1,
			Interleave: true, Quirks: llmtest.Quirks{OmitIndex: true, IDOnEveryChunk: true}}, calls: calls, finish: "tool_calls", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "reasoning_content", round: llmtest.Round{Reasoning: "let me think", Text: "ok"},
			content: "ok", reasoning: "let me think", finish: "stop", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "reasoning field", round: llmtest.Round{Reasoning: "thinking hard", ReasoningField: "reasoning", Text: "ok"},
			content: "ok", reasoning: "thinking hard", finish: "stop", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "usage in finish chunk with cached tokens", round: llmtest.Round{Text: "hi", Placement: llmtest.UsageInFinishChunk,
			Usage: &llmtest.Usage{PromptTokens: 7, CompletionTokens: 3, CachedTokens: 5}},
			content: "hi", finish: "stop", usage: &llm.Usage{PromptTokens: 7, CompletionTokens: 3, CachedTokens: 5}},
		{name: "usage in later chunk", round: llmtest.Round{Text: "hi", Usage: &llmtest.Usage{PromptTokens: 9, CompletionTokens: 4, CachedTokens: 2}},
			content: "hi", finish: "stop", usage: &llm.Usage{PromptTokens: 9, CompletionTokens: 4, CachedTokens: 2}},
		{name: "usage absent", round: llmtest.Round{Text: "hi", Placement: llmtest.UsageAbsent}, content: "hi", finish: "stop"},
		{name: "all quirks", round: llmtest.Round{Text: "text and calls", ToolCalls: []llmtest.Call{readCall, grepCall}, ArgChunk: 1,
			Quirks: llmtest.Quirks{PlaceholderFirstChunk: true, EmptyToolCallsOnText: true, NullContent: true, ExtraFields: true}},
			content: "text and calls", calls: calls, finish: "tool_calls", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "keep-alive flood", round: llmtest.Round{Text: "after the flood", KeepAlives: 1000},
			content: "after the flood", finish: "stop", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "no [DONE] after finish", round: llmtest.Round{Text: "hi", Quirks: llmtest.Quirks{NoDone: true}},
			content: "hi", finish: "stop", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{name: "finish length", round: llmtest.Round{Text: "cut", FinishReason: "length"},
			content: "cut", finish: "length", usage: &llm.Usage{PromptTokens: 100, CompletionTokens: 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Rounds(tt.round))
			var text, reasoning strings.Builder
			args := map[int]*strings.Builder{}
			resp, err := client(srv, 0).Stream(context.Background(), userRequest(), func(d llm.Delta) {
				switch d.Kind {
				case llm.DeltaText:
					text.WriteString(d.Text)
				case llm.DeltaReasoning:
					reasoning.WriteString(d.Text)
				case llm.DeltaToolCall:
					if args[d.ToolIndex] == nil {
						args[d.ToolIndex] = &strings.Builder{}
					}
					args[d.ToolIndex].WriteString(d.Text)
				}
			})
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			checkResponse(t, resp, tt.content, tt.reasoning, tt.finish, tt.calls, tt.usage)
			if text.String() != tt.content || reasoning.String() != tt.reasoning {
				t.Errorf("deltas: text %q reasoning %q", text.String(), reasoning.String())
			}
			for i, c := range tt.calls {
				if args[i] == nil || args[i].String() != c.Arguments {
					t.Errorf("argument deltas of call %d = %v, want %q", i, args[i], c.Arguments)
				}
			}
			if resp.FirstToken <= 0 || resp.Duration < resp.FirstToken {
				t.Errorf("timings: first %v, duration %v", resp.FirstToken, resp.Duration)
			}
		})
	}
}

func checkResponse(t *testing.T, resp llm.Response, content, reasoning, finish string, calls []llm.ToolCall, usage *llm.Usage) {
	t.Helper()
	if resp.Content != content || resp.Reasoning != reasoning || resp.FinishReason != finish {
		t.Errorf("got content %q reasoning %q finish %q; want %q %q %q",
			resp.Content, resp.Reasoning, resp.FinishReason, content, reasoning, finish)
	}
	if len(resp.ToolCalls) != len(calls) {
		t.Fatalf("got %d tool calls %+v, want %d", len(resp.ToolCalls), resp.ToolCalls, len(calls))
	}
	for i := range calls {
		if resp.ToolCalls[i] != calls[i] {
			t.Errorf("call %d = %+v, want %+v", i, resp.ToolCalls[i], calls[i])
		}
	}
	if usage == nil {
		if resp.UsageKnown {
			t.Errorf("usage known %+v, want unknown", resp.Usage)
		}
		return
	}
	if !resp.UsageKnown || resp.Usage != *usage {
		t.Errorf("usage %+v (known %v), want %+v", resp.Usage, resp.UsageKnown, *usage)
	}
}

func TestStreamNilOnDelta(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(readCall)))
	resp, err := client(srv, 0).Stream(context.Background(), userRequest(), nil)
	if err != nil || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Arguments != readCall.Args {
		t.Fatalf("Stream = %+v, %v", resp, err)
	}
}
