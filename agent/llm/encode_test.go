package llm

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEncodeCacheFollowsChanges(t *testing.T) {
	var c encodeCache
	h := []Message{
		{Role: RoleUser, Content: "a"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Name: "f", Arguments: "{}"}}},
		{Role: RoleTool, ToolCallID: "1", Content: ""},
	}
	steps := []struct {
		name string
		msgs []Message
	}{
		{"first", h},
		{"appended", append(h[:3:3], Message{Role: RoleUser, Content: "<b> & c"})},
		{"rewritten middle (compaction)", []Message{{Role: RoleUser, Content: "summary"}, h[1], h[2]}},
		{"shorter", h[:1]},
	}
	for _, s := range steps {
		body, err := c.body(Request{Model: "m", Messages: s.msgs}, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Messages []map[string]any `json:"messages"`
		}
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("%s: invalid body %s: %v", s.name, body, err)
		}
		fresh, _ := (&encodeCache{}).body(Request{Model: "m", Messages: s.msgs}, 0, 0)
		if string(body) != string(fresh) || len(got.Messages) != len(s.msgs) {
			t.Errorf("%s: cached body differs from a fresh one:\n%s\n%s", s.name, body, fresh)
		}
	}
	body, _ := c.body(Request{Messages: h}, 0, 0)
	if !strings.Contains(string(body), `{"role":"tool","content":"","tool_call_id":"1"}`) ||
		!strings.Contains(string(body), `{"role":"assistant","tool_calls":[`) {
		t.Errorf("content rules: %s", body)
	}
}

func TestEncodeCacheCopiesToolCalls(t *testing.T) {
	var c encodeCache
	calls := []ToolCall{{ID: "1", Name: "f", Arguments: "{}"}}
	msgs := []Message{{Role: RoleAssistant, ToolCalls: calls}}
	_, _ = c.body(Request{Messages: msgs}, 0, 0)
	calls[0].Arguments = `{"changed":true}` // the caller edits in place
	body, _ := c.body(Request{Messages: msgs}, 0, 0)
	if !strings.Contains(string(body), "changed") {
		t.Errorf("stale encoding after an in-place edit: %s", body)
	}
}
