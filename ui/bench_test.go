package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/transcript"
)

// bigTranscript fills a model with n messages of mixed kinds: prompts,
// markdown answers, tool calls with diffs, cards.
func bigTranscript(b *testing.B, n int) *Model {
	m := newTestModel(b, 160, 48)
	for i := 0; m.tr.Len() < n; i++ {
		id := fmt.Sprint(i)
		m.tr.AddPrompt("prompt "+id, nil, nil, false)
		m.tr.AppendAnswer("Answer **" + id + "** with `code` and a list:\n\n- one\n- two\n\n```go\nfunc f() int { return " + id + " }\n```")
		m.tr.StartTool(agent.ToolStarted{CallID: id, Name: "edit_file", Args: `{"path":"a.go"}`}, time.Time{})
		m.tr.FinishTool(agent.ToolFinished{CallID: id, Name: "edit_file", Args: `{"path":"a.go"}`,
			Diff: "--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x\n+y\n", Duration: time.Millisecond})
		m.tr.AddCard(agent.Intervention{Seq: i, Kind: "reflection", AtToolCall: i, Why: "checkpoint", Message: "restate the task"})
	}
	m.tr.EndTask()
	return m
}

// BenchmarkViewTranscript10k is View of a 10,000-message transcript
// (budget: 16 ms). Only what is visible is rendered, so it costs the same
// as a short one; the scrolled case renders new entries as it goes.
func BenchmarkViewTranscript10k(b *testing.B) {
	m := bigTranscript(b, 10000)
	m.View()
	b.Run("bottom", func(b *testing.B) {
		for b.Loop() {
			m.View()
		}
	})
	b.Run("scrolling", func(b *testing.B) {
		w, h := m.transcriptSize()
		for b.Loop() {
			m.tr.ScrollUp(h, w, h) // a page of entries not rendered before
			m.View()
		}
	})
}

// BenchmarkStreamDelta is handling one text delta and drawing the frame
// that follows (budget: 0.2 ms). Markdown is redrawn on frame ticks, not
// per delta; BenchmarkStreamFrame measures that redraw.
func BenchmarkStreamDelta(b *testing.B) {
	m := bigTranscript(b, 1000)
	send(m, events(agent.TextDelta{Text: strings.Repeat("Some streamed text. ", 200)}), transcript.FrameMsg{})
	m.View()
	msg := events(agent.TextDelta{Text: "more words "})
	for b.Loop() {
		m.Update(msg)
		m.View()
	}
}

// BenchmarkStreamFrame is one frame's redraw of a long streaming answer:
// only the open block after the last blank line is re-rendered.
func BenchmarkStreamFrame(b *testing.B) {
	m := bigTranscript(b, 1000)
	var long strings.Builder
	for i := range 100 {
		fmt.Fprintf(&long, "Paragraph %d explains one more part of the design in a sentence or two.\n\n", i)
	}
	send(m, events(agent.TextDelta{Text: long.String()}), transcript.FrameMsg{})
	m.View()
	for b.Loop() {
		send(m, events(agent.TextDelta{Text: "word "}), transcript.FrameMsg{})
		m.View()
	}
}
