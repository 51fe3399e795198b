package ui

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/ui/dialog"
)

const (
	cardWaiting    = "waiting for the model's answer…"
	cardNoAnswer   = "not answered: the task ended first"
	cardAnswerText = "Task: find the leak. Next: read pool.go."
)

// A checkpoint card waits for the model's answer while its task runs;
// once the task has ended, a card still without one says so instead of
// waiting forever. Cards that ask or halt never wait.
func TestCheckpointCardSettlesWhenItsTaskEnds(t *testing.T) {
	inject := agent.Intervention{Seq: 1, Kind: "reflection", AtToolCall: 10, Message: "restate the task", Action: "inject"}
	halt := agent.Intervention{Seq: 1, Kind: "repeat", AtToolCall: 4, Message: "stop repeating", Action: "halt"}
	stopped := agent.TaskStopped{Reason: agent.StopCompleted}
	tests := []struct {
		name     string
		evs      []agent.Event
		want     string
		dontWant []string
	}{
		{"running", []agent.Event{agent.InterventionFired{Intervention: inject}}, cardWaiting, []string{cardNoAnswer}},
		{"answered", []agent.Event{agent.InterventionFired{Intervention: inject}, agent.InterventionAnswered{Seq: 1, Text: cardAnswerText}, stopped},
			cardAnswerText, []string{cardWaiting, cardNoAnswer}},
		{"ended without an answer", []agent.Event{agent.InterventionFired{Intervention: inject}, stopped}, cardNoAnswer, []string{cardWaiting}},
		{"halt", []agent.Event{agent.InterventionFired{Intervention: halt}, agent.TaskStopped{Reason: agent.StopLoopDetected}},
			"stop repeating", []string{cardWaiting, cardNoAnswer}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, 100, 40)
			send(m, events(tt.evs...))
			screen := plain(m)
			if !strings.Contains(screen, tt.want) {
				t.Errorf("the screen lacks %q:\n%s", tt.want, screen)
			}
			for _, bad := range tt.dontWant {
				if strings.Contains(screen, bad) {
					t.Errorf("the screen shows %q:\n%s", bad, screen)
				}
			}
		})
	}
}

// A resumed session's checkpoint that got no answer: its task ended long
// ago, so the card does not wait.
func TestResumedCheckpointWithoutAnswerDoesNotWait(t *testing.T) {
	rd := &datalog.RoundDetail{
		Round:         datalog.Round{Seq: 1, TaskSeq: 1, FinishReason: "tool_calls"},
		Messages:      []datalog.Message{{Msg: llm.Message{Role: llm.RoleUser, Content: "find the leak"}}},
		Interventions: []datalog.Intervention{{Kind: "reflection", AtToolCall: 10, Message: "restate the task", Action: "inject"}},
	}
	dark := true
	s := agent.New(agent.Options{ProviderName: "openai", Model: "gpt-test"})
	t.Cleanup(s.Close)
	m := New(Options{Session: s, Bridge: dialog.NewBridge(), Resumed: &datalog.SessionDetail{Rounds: []*datalog.RoundDetail{rd}},
		ProviderLabel: "openai", Model: "gpt-test", ContextWindow: 128000, Dark: &dark, Width: 100, Height: 40})
	screen := plain(m)
	if !strings.Contains(screen, cardNoAnswer) || strings.Contains(screen, cardWaiting) {
		t.Fatalf("the resumed card should say it got no answer, not wait:\n%s", screen)
	}
}
