package mcp

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/keel-dev/keel/tools/mcp/mcptest"
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
	png := mcptest.PNG()
	tests := []struct {
		name   string
		res    *sdk.CallToolResult
		want   string
		images int
	}{
		{"text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a"}, &sdk.TextContent{Text: "b"}}}, "a\nb", 0},
		{"image", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: png}}}, "[image 3×2 image/png]", 1},
		{"not an image", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: []byte("1234")}}},
			"[image, 4 bytes, not shown: not a PNG, JPEG, GIF or WebP image (text/plain)]", 0},
		{"image resource", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "x:dot", MIMEType: "image/png", Blob: png}}}},
			"[resource x:dot 3×2 image/png]", 1},
		{"resource", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///a", Text: "body"}}}}, "[resource file:///a]\nbody", 0},
		{"link", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ResourceLink{Name: "n", URI: "u"}}}, "[resource n: u]", 0},
		{"structured only", &sdk.CallToolResult{StructuredContent: map[string]any{"k": 1}}, `{"k":1}`, 0},
		{"nothing", &sdk.CallToolResult{}, "(no output)", 0},
	}
	s := &server{opts: &Options{}}
	for _, tt := range tests {
		got := s.result(tt.res)
		if got.Output != tt.want || len(got.Images) != tt.images {
			t.Errorf("%s: %q with %d images, want %q with %d", tt.name, got.Output, len(got.Images), tt.want, tt.images)
		}
	}
}

func TestAtMostMaxImagesPerResult(t *testing.T) {
	var cs []sdk.Content
	for range maxImages + 2 {
		cs = append(cs, &sdk.ImageContent{MIMEType: "image/png", Data: mcptest.PNG()})
	}
	got := (&server{opts: &Options{}}).result(&sdk.CallToolResult{Content: cs})
	if len(got.Images) != maxImages || strings.Count(got.Output, "not shown: at most") != 2 {
		t.Errorf("%d images, output %q", len(got.Images), got.Output)
	}
}

func TestReport(t *testing.T) {
	sts := []Status{
		{Name: "github", Transport: "stdio", Target: "github-mcp", State: StateReady,
			Tools: []ToolInfo{{Name: "mcp__github__a", ReadOnly: true}, {Name: "mcp__github__b"}}, Stderr: "started\nlistening",
			Noise: "Loading config... done", Resources: 2, Prompts: []string{"github:review"}},
		{Name: "web", Transport: "http", Target: "https://x/mcp", State: StateFailed, Err: "connection refused"},
		{Name: "gone", Transport: "stdio", Target: "nope", State: StateFailed,
			Err: "it exited before answering (exit status 1); its stderr ends: nope: not found", Stderr: "nope: not found"},
	}
	want := `github: ready (stdio: github-mcp)
  tools (2):
    mcp__github__a (read-only)
    mcp__github__b
  resources: 2 (the model reads them with mcp__list_resources and mcp__read_resource)
  prompts (1):
    /github:review
  stdout lines that were not JSON-RPC (skipped):
    Loading config... done
  stderr:
    started
    listening

web: failed (http: https://x/mcp) — connection refused

gone: failed (stdio: nope) — it exited before answering (exit status 1); its stderr ends: nope: not found`
	if got := Report(sts); got != want {
		t.Errorf("Report =\n%s\nwant\n%s", got, want)
	}
	if got := Report(nil); !strings.Contains(got, "[mcp.servers.NAME]") {
		t.Errorf("Report(nil) = %q", got)
	}
}
