package ui

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/ui/dialog"
)

// The demo's input hint describes the story until it has run, then says
// how to quit (issue 32).
func TestDemoHintAfterTheStory(t *testing.T) {
	m := newTestModelWith(t, 120, 30, Options{Demo: true})
	if !strings.Contains(plain(m), "the demo model fixes a failing test") {
		t.Fatalf("the demo's first hint is missing:\n%s", plain(m))
	}
	m.running = true
	send(m, events(agent.TaskStopped{Reason: agent.StopCompleted}))
	got := plain(m)
	if strings.Contains(got, "fixes a failing test in about a minute") || !strings.Contains(got, "The demo has run") {
		t.Fatalf("after the story the hint still describes it:\n%s", got)
	}
}

// The welcome screen keeps the config file's path whole at 80 columns
// (issue 32: it wrapped at a hyphen, as if the path had a line break).
func TestWelcomeKeepsThePathWhole(t *testing.T) {
	dark := true
	path := "/tmp/keel-new-user-home/.config/keel/config.toml"
	m := New(Options{Bridge: dialog.NewBridge(), Dark: &dark, Width: 80, Height: 24, ConfigPath: path})
	if got := plain(m); !strings.Contains(got, path) {
		t.Fatalf("the path is cut:\n%s", got)
	}
}

// /compact's event lowers the context figure at once (issue 32: it stayed
// until the next round).
func TestCompactLowersTheContextFigure(t *testing.T) {
	m := newTestModel(t, 120, 30)
	send(m, events(agent.UsageUpdated{ContextTokens: 64000, ContextWindow: 128000}))
	if !strings.Contains(plain(m), "ctx 50%") {
		t.Fatalf("before:\n%s", plain(m))
	}
	send(m, events(agent.ContextCompacted{TokensBefore: 60000, TokensAfter: 4000}))
	if got := plain(m); !strings.Contains(got, "ctx 6%") {
		t.Fatalf("after /compact the figure did not drop:\n%s", got)
	}
}

// A checkpoint's card settles live (issue 32): its answer is the reply
// the model wrote right after it, rendered as markdown and shown once
// (in the card, not again below it); a checkpoint answered by more calls
// says "not answered", and the task's final answer stays out of it.
func TestCheckpointCardSettlesLive(t *testing.T) {
	cp := agent.Intervention{Seq: 1, Kind: "reflection", AtToolCall: 3, Message: "restate the task", Action: "inject"}
	call := []llm.ToolCall{{ID: "c9", Name: "read_file", Arguments: `{"path":"pool.go"}`}}
	reply := "**Task**: find the leak. Next: read pool.go."
	t.Run("a reply with calls", func(t *testing.T) {
		m := newTestModel(t, 100, 40)
		send(m, events(agent.InterventionFired{Intervention: cp}, agent.TextDelta{Text: reply},
			agent.AssistantMessage{Content: reply, ToolCalls: call}, agent.RoundFinished{},
			agent.InterventionAnswered{Seq: 1, Text: reply}, agent.ToolStarted{CallID: "c9", Name: "read_file", Args: call[0].Arguments}))
		got := plain(m)
		if n := strings.Count(got, "find the leak"); n != 1 || strings.Contains(got, "**") || strings.Contains(got, cardWaiting) {
			t.Fatalf("the reply shows %d times (want once, in the card, markdown rendered):\n%s", n, got)
		}
	})
	t.Run("calls without a reply, then the final answer", func(t *testing.T) {
		m := newTestModel(t, 100, 40)
		send(m, events(agent.InterventionFired{Intervention: cp}, agent.AssistantMessage{ToolCalls: call},
			agent.ReflectionRecorded{Seq: 1, Status: agent.ReflectionUnanswered},
			agent.TextDelta{Text: "All done: the leak is fixed."}, agent.AssistantMessage{Content: "All done: the leak is fixed."},
			agent.TaskStopped{Reason: agent.StopCompleted}))
		got := plain(m)
		if !strings.Contains(got, "not answered") || strings.Contains(got, cardWaiting) || strings.Count(got, "All done") != 1 || strings.Contains(got, "answer:") {
			t.Fatalf("the card should say not answered and the final answer show once, outside it:\n%s", got)
		}
	})
}
