package ui

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/tools"
)

func pngImage(t *testing.T, w, h int) tools.Image {
	t.Helper()
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h)))
	im, err := tools.NewImage(b.Bytes(), "x.png")
	if err != nil {
		t.Fatal(err)
	}
	return im
}

func TestToolRowShowsProgressThenImages(t *testing.T) {
	m := newTestModel(t, 120, 30)
	send(m, events(
		agent.ToolStarted{CallID: "1", Name: "mcp__ev__long", Args: `{"steps":3}`},
		agent.ToolProgress{CallID: "1", Name: "mcp__ev__long", Progress: tools.Progress{Progress: 2, Total: 3, Message: "indexing\x1b[31m"}},
	))
	s := plain(m)
	if !strings.Contains(s, "mcp__ev__long") || !strings.Contains(s, "▰▰▰▰▰▱▱▱ 2/3 (67%) indexing") || strings.Contains(s, "\x1b[31m") {
		t.Fatalf("a running call's row shows its progress:\n%s", s)
	}
	send(m, events(agent.ToolFinished{CallID: "1", Name: "mcp__ev__long", Output: "done", Images: []tools.Image{pngImage(t, 3, 2)}}))
	s = plain(m)
	if strings.Contains(s, "2/3") || !strings.Contains(s, "[image 3×2]") {
		t.Fatalf("a finished call's row drops its progress and shows its image:\n%s", s)
	}
}

func TestResumedToolRowShowsImages(t *testing.T) {
	m := newTestModel(t, 100, 30)
	m.tr.LoadHistory([]llm.Message{
		{Role: llm.RoleUser, Content: "look"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1", Name: "read_file", Arguments: `{"path":"a.png"}`}}},
		{Role: llm.RoleTool, ToolCallID: "1", Name: "read_file", Content: "a.png", Images: []llm.Image{{MIME: "image/png", Width: 640, Height: 480}}},
	})
	if s := plain(m); !strings.Contains(s, "[image 640×480]") {
		t.Fatalf("resumed:\n%s", s)
	}
}
