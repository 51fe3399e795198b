package llm

import (
	"encoding/json"
	"reflect"
	"testing"
)

var messageSeeds = []string{
	`{"role":"user","content":"hello"}`,
	`{"role":"assistant","content":"","reasoning":"think","tool_calls":[{"id":"c1","name":"read_file","arguments":"{\"path\":\"a.go\"}"}]}`,
	`{"role":"tool","content":"     1\tpackage main\n","tool_call_id":"c1","name":"read_file"}`,
	`{"role":"assistant","content":"é ✓ \u00e9 \"q\" \\ \/","tool_calls":[]}`,
	`{"role":"system","content":null,"tool_calls":null}`,
	`{"role":"user","content":"a","extra":{"x":[1,2,{"y":null}]}}`,
	`{"role":"assistant","tool_calls":[null,{"id":"c2"}]}`,
	`{"Role":"user"}`,
	`{"role":"user","role":"tool"}`,
	`{"content":5}`,
	`{"content":"\ud83d\ude00"}`,
	`[]`,
}

// FuzzDecodeMessage: whatever the fast path takes, encoding/json decodes
// the same; what it gives up, encoding/json decides.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range messageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var fast, std Message
		stdErr := json.Unmarshal(raw, &std)
		if !fastDecodeMessage(raw, &fast) {
			var got Message
			if err := DecodeMessage(raw, &got); (err == nil) != (stdErr == nil) || (err == nil && !reflect.DeepEqual(got, std)) {
				t.Fatalf("%q: DecodeMessage = %+v, %v; encoding/json %+v, %v", raw, got, err, std, stdErr)
			}
			return
		}
		if stdErr != nil {
			t.Fatalf("fast decoding took %q, encoding/json refuses it: %v", raw, stdErr)
		}
		if !reflect.DeepEqual(fast, std) {
			t.Fatalf("%q:\nfast %+v\njson %+v", raw, fast, std)
		}
	})
}

// The messages keel stores take the fast path; odd ones fall back.
func TestFastDecodeMessageTakesKeelsShapes(t *testing.T) {
	for _, m := range []Message{
		{Role: RoleUser, Content: "fix the build"},
		{Role: RoleAssistant, Reasoning: "r", ToolCalls: []ToolCall{{ID: "1", Name: "grep", Arguments: `{"pattern":"TODO"}`}}},
		{Role: RoleTool, Content: "x\ty\n\u2028<&>", ToolCallID: "1", Name: "grep"},
	} {
		raw, _ := json.Marshal(m)
		var got Message
		if !fastDecodeMessage(raw, &got) || !reflect.DeepEqual(got, m) {
			t.Errorf("%s: fast path %+v, want %+v", raw, got, m)
		}
	}
	for _, s := range messageSeeds[7:] {
		var got Message
		if fastDecodeMessage([]byte(s), &got) {
			t.Errorf("%s took the fast path", s)
		}
	}
}
