package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
)

func TestWireRequest(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("ok")))
	c := llm.New(llm.Config{BaseURL: srv.URL(), APIKey: "sk-test", Model: "cfg-model", MaxOutputTokens: 512, Name: "fake"})
	req := llm.Request{
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "be brief"},
			{Role: llm.RoleUser, Content: "read main.go"},
			{Role: llm.RoleAssistant, Reasoning: "secret thoughts", ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"main.go"}`}}},
			{Role: llm.RoleTool, ToolCallID: "call_1", Name: "read_file", Content: "package main"},
			{Role: llm.RoleAssistant, Content: "done", Reasoning: "more thoughts"},
		},
		Tools: []llm.ToolDef{
			{Name: "read_file", Description: "read a file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
			{Name: "noop"},
		},
	}
	if _, err := c.Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	if got.Model != "cfg-model" || !got.Stream || got.Header.Get("Authorization") != "Bearer sk-test" {
		t.Errorf("model %q stream %v auth %q", got.Model, got.Stream, got.Header.Get("Authorization"))
	}
	if strings.Join(got.Tools, ",") != "read_file,noop" {
		t.Errorf("tools %v", got.Tools)
	}
	body := string(got.Body)
	for _, want := range []string{`"stream_options":{"include_usage":true}`, `"max_tokens":512`, `"parameters":{"type":"object","properties":{}}`} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %s: %s", want, body)
		}
	}
	if strings.Contains(body, "thoughts") || strings.Contains(body, "reasoning") {
		t.Errorf("reasoning was sent back: %s", body)
	}
	asst := got.Messages[2]
	if asst.RawContent != nil && string(asst.RawContent) != "null" && string(asst.RawContent) != `""` {
		t.Errorf("assistant tool-call message content = %s, want null or absent", asst.RawContent)
	}
	if len(asst.ToolCalls) != 1 || asst.ToolCalls[0] != (llmtest.Call{ID: "call_1", Name: "read_file", Args: `{"path":"main.go"}`}) {
		t.Errorf("tool calls %+v", asst.ToolCalls)
	}
	if tool := got.Messages[3]; tool.Role != "tool" || tool.ToolCallID != "call_1" || tool.Content != "package main" {
		t.Errorf("tool message %+v", tool)
	}
}

func TestWireRequestReasoningModelUsesMaxCompletionTokens(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("ok")))
	c := llm.New(llm.Config{BaseURL: srv.URL(), Model: "o3-mini", MaxOutputTokens: 100})
	if _, err := c.Stream(context.Background(), userRequest(), nil); err != nil {
		t.Fatal(err)
	}
	if body := string(srv.Requests()[0].Body); !strings.Contains(body, `"max_completion_tokens":100`) || strings.Contains(body, `"max_tokens"`) {
		t.Errorf("body %s", body)
	}
}
