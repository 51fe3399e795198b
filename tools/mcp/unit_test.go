package mcp

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func sdkTools(names ...string) []*sdk.Tool {
	var out []*sdk.Tool
	for _, n := range names {
		out = append(out, &sdk.Tool{Name: n, InputSchema: map[string]any{"type": "object"}})
	}
	return out
}

func TestTailBuffer(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		max, n int
		want   string
	}{
		{"all", []string{"a\nb\n", "c\n"}, 100, 0, "a\nb\nc"},
		{"last lines", []string{"a\nb\nc\n"}, 100, 2, "b\nc"},
		{"cut drops the partial line", []string{"first line\n", "second\n"}, 10, 0, "second"},
		{"no final newline", []string{"x\ny"}, 100, 1, "y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newTailBuffer(tt.max)
			for _, w := range tt.writes {
				b.Write([]byte(w))
			}
			if got := b.Tail(tt.n); got != tt.want {
				t.Errorf("Tail(%d) = %q, want %q", tt.n, got, tt.want)
			}
		})
	}
}

func TestInputSchema(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"object kept", map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}},
			`{"properties":{"q":{"type":"string"}},"type":"object"}`},
		{"properties added", map[string]any{"type": "object"}, `{"properties":{},"type":"object"}`},
		{"type added", map[string]any{"properties": map[string]any{}}, `{"properties":{},"type":"object"}`},
		{"not an object", map[string]any{"type": "string"}, string(emptySchema)},
		{"nil", nil, string(emptySchema)},
		{"too big", map[string]any{"type": "object", "description": strings.Repeat("x", 70<<10)}, string(emptySchema)},
	}
	for _, tt := range tests {
		if got := string(inputSchema(tt.in)); got != tt.want {
			t.Errorf("%s: inputSchema = %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestResultText(t *testing.T) {
	tests := []struct {
		name string
		res  *sdk.CallToolResult
		want string
	}{
		{"text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a"}, &sdk.TextContent{Text: "b"}}}, "a\nb"},
		{"image", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: []byte("1234")}}}, "[image image/png, 4 bytes, not shown]"},
		{"resource", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///a", Text: "body"}}}}, "[resource file:///a]\nbody"},
		{"link", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ResourceLink{Name: "n", URI: "u"}}}, "[resource n: u]"},
		{"structured only", &sdk.CallToolResult{StructuredContent: map[string]any{"k": 1}}, `{"k":1}`},
		{"nothing", &sdk.CallToolResult{}, "(no output)"},
	}
	for _, tt := range tests {
		if got := resultText(tt.res); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestReport(t *testing.T) {
	sts := []Status{
		{Name: "github", Transport: "stdio", Target: "github-mcp", State: StateReady,
			Tools: []ToolInfo{{Name: "mcp__github__a", ReadOnly: true}, {Name: "mcp__github__b"}}, Stderr: "started\nlistening"},
		{Name: "web", Transport: "http", Target: "https://x/mcp", State: StateFailed, Err: "connection refused"},
	}
	want := `github: ready (stdio: github-mcp)
  tools (2): mcp__github__a (read-only), mcp__github__b
  stderr:
    started
    listening

web: failed (http: https://x/mcp) — connection refused`
	if got := Report(sts); got != want {
		t.Errorf("Report =\n%s\nwant\n%s", got, want)
	}
	if got := Report(nil); !strings.Contains(got, "[mcp.servers.NAME]") {
		t.Errorf("Report(nil) = %q", got)
	}
}
