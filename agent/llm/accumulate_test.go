package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func feedAll(t testing.TB, a *accumulator, chunks ...string) {
	t.Helper()
	for _, c := range chunks {
		if err := a.feed([]byte(c)); err != nil {
			t.Fatalf("feed %s: %v", c, err)
		}
	}
}

func TestAccumulatorIndexFallbacks(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []ToolCall
	}{
		{name: "index reused for parallel calls with new ids", chunks: []string{
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"x\""}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"g","arguments":"{}"}}]}}]}`,
		}, want: []ToolCall{{ID: "a", Name: "f", Arguments: `{"x":1}`}, {ID: "b", Name: "g", Arguments: `{}`}}},
		{name: "no index, all calls in one delta by position", chunks: []string{
			`{"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{"}},{"id":"b","function":{"name":"g","arguments":"["}}]}}]}`,
			`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"}"}},{"function":{"arguments":"]"}}]}}]}`,
		}, want: []ToolCall{{ID: "a", Name: "f", Arguments: `{}`}, {ID: "b", Name: "g", Arguments: `[]`}}},
		{name: "no id at all gets a generated one", chunks: []string{
			`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":"{}"}}]}}]}`,
		}, want: []ToolCall{{ID: "call_keel_0", Name: "f", Arguments: `{}`}}},
		{name: "repeated name is not doubled", chunks: []string{
			`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{"}}]}}]}`,
			`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"}"}}]}}]}`,
		}, want: []ToolCall{{ID: "a", Name: "f", Arguments: `{}`}}},
		{name: "choices other than 0 are ignored", chunks: []string{
			`{"choices":[{"index":1,"delta":{"tool_calls":[{"index":0,"id":"z","function":{"name":"zz"}}]}}]}`,
		}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAccumulator(nil)
			feedAll(t, a, tt.chunks...)
			got := a.response().ToolCalls
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("calls %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestAccumulatorBothReasoningFieldsOnce(t *testing.T) {
	a := newAccumulator(nil)
	feedAll(t, a, `{"choices":[{"delta":{"reasoning_content":"hm","reasoning":"hm","content":null}}]}`)
	if r := a.response().Reasoning; r != "hm" {
		t.Errorf("reasoning %q, want hm", r)
	}
}

// chunkJSON renders a tool-call argument piece as a server would.
func chunkJSON(index int, id, name, args string) []byte {
	tc := map[string]any{"index": index, "function": map[string]any{"arguments": args}}
	if id != "" {
		tc["id"], tc["type"] = id, "function"
		tc["function"].(map[string]any)["name"] = name
	}
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"tool_calls": []any{tc}}}}})
	return b
}

// FuzzAccumulate feeds arbitrary payloads (must not panic) and, from the
// same input, a well-formed interleaving of two calls whose argument bytes
// must come out intact and in order.
func FuzzAccumulate(f *testing.F) {
	f.Add([]byte(`{"choices":[{"index":0,"delta":{"content":"hi"}}]}`), "ab{\"x\":1}", uint8(1))
	f.Add([]byte(`{"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"{"}}]}}],"usage":{"prompt_tokens":1}}`), "é✓\x00\"\\", uint8(3))
	f.Add([]byte(`{"choices":[],"usage":null}`), "", uint8(0))
	f.Add([]byte(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":-1,"id":""}]}}]}`), "x", uint8(255))
	f.Fuzz(func(t *testing.T, raw []byte, args string, step uint8) {
		a := newAccumulator(func(Delta) {})
		_ = a.feed(raw) // may fail; must not panic
		_ = a.response()

		// Servers send valid UTF-8 per chunk, so pieces end on rune boundaries.
		args = strings.ToValidUTF8(args, "")
		pieces := splitRunes(args, int(step%7)+1)
		b := newAccumulator(nil)
		feedAll(t, b, string(chunkJSON(0, "a", "f", "")), string(chunkJSON(1, "b", "g", "")))
		for _, p := range pieces {
			feedAll(t, b, string(chunkJSON(0, "", "", p)), string(chunkJSON(1, "", "", p+p)))
		}
		got := b.response().ToolCalls
		if len(got) != 2 || got[0].Arguments != args || got[1].Arguments != doubled(pieces) {
			t.Fatalf("args %q pieces %q: got %+v", args, pieces, got)
		}
	})
}

func doubled(pieces []string) string {
	var b strings.Builder
	for _, p := range pieces {
		b.WriteString(p + p)
	}
	return b.String()
}

// splitRunes cuts s into pieces of about n bytes on rune boundaries.
func splitRunes(s string, n int) []string {
	var out []string
	for s != "" {
		end := min(n, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

func BenchmarkAccumulateChunk(b *testing.B) {
	text := []byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"content":"hello wor"},"logprobs":null,"finish_reason":null}],"usage":null}`)
	arg := []byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"path\":"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`)
	head := chunkJSON(0, "call_1", "read_file", "")
	b.ReportAllocs()
	b.SetBytes(int64(len(text)+len(arg)) / 2)
	a := newAccumulator(func(Delta) {})
	_ = a.feed(head)
	for i := 0; b.Loop(); i++ {
		if i%1000 == 0 { // keep the builders from growing without bound
			a = newAccumulator(func(Delta) {})
			_ = a.feed(head)
		}
		raw := text
		if i%2 == 1 {
			raw = arg
		}
		if err := a.feed(raw); err != nil {
			b.Fatal(err)
		}
	}
}
