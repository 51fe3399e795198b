package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// history400 is a session of 400 rounds, each one read_file call and its
// ~1.5 KB result, as in the keelbench workload.
func history400() Request {
	file := strings.Repeat("func f() {\n\treturn \"x\" // ünïcode\n}\n", 40)
	msgs := []Message{
		{Role: RoleSystem, Content: strings.Repeat("You are keel. ", 100)},
		{Role: RoleUser, Content: "read the ten files, one per round"},
	}
	for i := range 400 {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			Message{Role: RoleAssistant, Reasoning: "next file", ToolCalls: []ToolCall{{ID: id, Name: "read_file", Arguments: fmt.Sprintf(`{"path":"f%d.go"}`, i%10)}}},
			Message{Role: RoleTool, ToolCallID: id, Name: "read_file", Content: file},
		)
	}
	tools := []ToolDef{{Name: "read_file", Description: "read a file", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}}
	return Request{Model: "m", Messages: msgs, Tools: tools}
}

// BenchmarkBuildRequest400Rounds measures building the body of round 401
// from a 400-round history, as the agent does every round: the history
// grows by one round between requests, so the cache holds all but the
// newest two messages.
func BenchmarkBuildRequest400Rounds(b *testing.B) {
	full := history400()
	prev := full
	prev.Messages = full.Messages[:len(full.Messages)-2]
	b.ReportAllocs()
	var size int
	for b.Loop() {
		b.StopTimer()
		var c encodeCache
		if _, err := c.body(prev, 0, 0); err != nil { // the previous round
			b.Fatal(err)
		}
		b.StartTimer()
		body, err := c.body(full, 0, 0)
		if err != nil {
			b.Fatal(err)
		}
		size = body.Len()
	}
	b.ReportMetric(float64(size), "body-bytes")
}

// BenchmarkBuildRequest400RoundsCold encodes the whole history with an
// empty cache (a resumed session's first request).
func BenchmarkBuildRequest400RoundsCold(b *testing.B) {
	req := history400()
	b.ReportAllocs()
	for b.Loop() {
		var c encodeCache
		if _, err := c.body(req, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
}
