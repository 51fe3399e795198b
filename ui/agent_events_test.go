package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/transcript"
)

func TestStatusBarStates(t *testing.T) {
	tests := []struct {
		name string
		evs  []agent.Event
		want string
	}{
		{"thinking", []agent.Event{agent.StateChanged{To: agent.StateThinking}}, "thinking"},
		{"reflecting", []agent.Event{agent.StateChanged{To: agent.StateReflecting}}, "reflecting"},
		{"rate limited", []agent.Event{agent.StateChanged{To: agent.StateRetrying}, agent.Retrying{Kind: "rate_limit", Wait: 12 * time.Second, Why: "rate limited by openai"}}, "rate limited by openai — retrying in 12 s"},
		{"503 is not called a rate limit", []agent.Event{agent.StateChanged{To: agent.StateRetrying}, agent.Retrying{Kind: "transient", Wait: 120 * time.Second, Why: "openai: HTTP 503"}}, "openai: HTTP 503 — retrying in 120 s"},
		{"silent server", []agent.Event{agent.StateChanged{To: agent.StateThinking}, agent.ProviderSilent{Provider: "openai", Quiet: 10 * time.Second, Timeout: 2 * time.Minute}}, "waiting for openai: nothing for 10 s (gives up at 120 s)"},
		{"silence over", []agent.Event{agent.StateChanged{To: agent.StateThinking}, agent.ProviderSilent{Provider: "openai", Quiet: 10 * time.Second, Timeout: 2 * time.Minute}, agent.ProviderSilent{Provider: "openai", Timeout: 2 * time.Minute}}, "thinking"},
		{"halted", []agent.Event{agent.StateChanged{To: agent.StateHalted, Detail: "loop_detected"}}, "halted: loop_detected"},
		{"demo", nil, "demo model (scripted, no LLM)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestModelWith(t, 120, 30, Options{Demo: tc.name == "demo"})
			send(m, events(tc.evs...))
			if !strings.Contains(plain(m), tc.want) {
				t.Fatalf("status bar lacks %q:\n%s", tc.want, plain(m))
			}
		})
	}
}

func TestRetryCountdownRunsOnTheSpinner(t *testing.T) {
	m := newTestModel(t, 120, 30)
	_, cmd := m.Update(events(agent.StateChanged{To: agent.StateRetrying}, agent.Retrying{Wait: 12 * time.Second}))
	if cmd == nil || !m.spinning {
		t.Fatal("the spinner should start while retrying")
	}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	send(m, spinMsg{at: t0}, spinMsg{at: t0.Add(5 * time.Second)})
	if !strings.Contains(plain(m), "retrying in 7 s") || strings.Contains(plain(m), "rate limited") {
		t.Fatalf("countdown (a retry of unknown cause is not called a rate limit):\n%s", plain(m))
	}
}

func TestNoTickWhenIdle(t *testing.T) {
	m := newTestModel(t, 80, 24)
	_, cmd := m.Update(events(agent.Notice{Text: "datalog write retried"}))
	if m.spinning || m.tr.FramePending() {
		t.Fatal("an idle screen must not tick")
	}
	_ = cmd
	send(m, events(agent.StateChanged{To: agent.StateThinking}))
	if !m.spinning {
		t.Fatal("working starts the spinner")
	}
	send(m, events(agent.StateChanged{To: agent.StateDone}, agent.TaskStopped{Reason: agent.StopCompleted}))
	if _, cmd := m.Update(spinMsg{}); cmd != nil || m.spinning {
		t.Fatal("the spinner stops itself once idle")
	}
}

func TestStreamingIsCoalescedToFrames(t *testing.T) {
	m := newTestModel(t, 80, 24)
	_, cmd := m.Update(events(agent.TextDelta{Text: "Hello"}))
	if cmd == nil || !m.tr.FramePending() {
		t.Fatal("a delta should schedule a frame")
	}
	_ = plain(m) // Bubble Tea draws after every update
	send(m, events(agent.TextDelta{Text: " world"}))
	if strings.Contains(plain(m), "Hello world") {
		t.Fatal("the answer is redrawn on the frame, not per delta")
	}
	send(m, transcript.FrameMsg{})
	if !strings.Contains(plain(m), "Hello world") {
		t.Fatalf("after the frame the text shows:\n%s", plain(m))
	}
	if _, cmd := m.Update(transcript.FrameMsg{}); cmd != nil {
		t.Fatal("no frame is scheduled when nothing changed")
	}
}

func TestAnswerRestartedDropsPartial(t *testing.T) {
	m := newTestModel(t, 80, 24)
	send(m, events(agent.TextDelta{Text: "partial answer"}), transcript.FrameMsg{})
	send(m, events(agent.AnswerRestarted{Reason: "stream cut"}, agent.TextDelta{Text: "fresh"}), transcript.FrameMsg{})
	s := plain(m)
	if strings.Contains(s, "partial answer") || !strings.Contains(s, "fresh") || !strings.Contains(s, "answer restarted: stream cut") {
		t.Fatalf("restart should drop the partial answer:\n%s", s)
	}
}

func TestCheckpointCardGetsItsAnswer(t *testing.T) {
	m := newTestModel(t, 100, 40)
	scenarioCheckpoint(t, m)
	s := plain(m)
	for _, want := range []string{"checkpoint", "at tool call 10", "why: keel takes stock every 10 tool calls", "since the last checkpoint: 8 reads, 0 edits, 1 failed", "sent to the model:", "answer:", "Ruled out eviction", "guard · re-read"} {
		if !strings.Contains(s, want) {
			t.Errorf("card lacks %q", want)
		}
	}
}

func TestStopCardsSayWhatToDo(t *testing.T) {
	tests := []struct {
		ev   agent.TaskStopped
		want string
	}{
		{agent.TaskStopped{Reason: agent.StopProviderError, Err: errors.New("401 unauthorized")}, "check the provider"},
		{agent.TaskStopped{Reason: agent.StopLoopDetected, Message: "keel stopped the task: same call 4 times"}, "send a prompt to continue"},
		{agent.TaskStopped{Reason: agent.StopCancelled}, "cancelled"},
	}
	for _, tc := range tests {
		m := newTestModel(t, 120, 30)
		send(m, events(tc.ev))
		if !strings.Contains(plain(m), tc.want) {
			t.Errorf("%s: want %q:\n%s", tc.ev.Reason, tc.want, plain(m))
		}
	}
}

func TestDeniedToolShowsReason(t *testing.T) {
	m := newTestModel(t, 100, 30)
	send(m, events(
		agent.ToolStarted{CallID: "1", Name: "run_command", Args: `{"command":"rm -rf /"}`},
		agent.ToolFinished{CallID: "1", Name: "run_command", Denied: true, DenyReason: "never outside the workspace"},
	))
	s := plain(m)
	if !strings.Contains(s, "⊘ run_command rm -rf /") || !strings.Contains(s, "reason: never outside the workspace") {
		t.Fatalf("denied call:\n%s", s)
	}
}

func TestReasoningCollapsedAndExpandable(t *testing.T) {
	m := newTestModel(t, 100, 30)
	send(m, events(agent.ReasoningDelta{Text: "first thought\nsecond thought"}, agent.TextDelta{Text: "answer"}), transcript.FrameMsg{})
	s := plain(m)
	if !strings.Contains(s, "▸ thinking: first thought") || strings.Contains(s, "second thought") {
		t.Fatalf("reasoning should be one dim line:\n%s", s)
	}
	send(m, press("ctrl+o"))
	if !strings.Contains(plain(m), "second thought") {
		t.Fatal("ctrl+o expands the reasoning")
	}
}

func TestSessionMsgRebuildsFromHistory(t *testing.T) {
	m := newTestModel(t, 100, 30)
	s := agent.New(agent.Options{})
	t.Cleanup(s.Close)
	send(m, SessionMsg{Session: s, Model: "other-model"})
	if m.gen != 1 || !strings.Contains(plain(m), "other-model") {
		t.Fatalf("session swap:\n%s", plain(m))
	}
}

func TestStalledStepsShowInThePlanFooter(t *testing.T) {
	m := newTestModel(t, 160, 48)
	plan := agent.Plan{Goal: "g", Status: agent.PlanActive, Steps: []agent.Step{{Title: "dig", Status: agent.StepActive}}}
	send(m, events(agent.PlanChanged{Plan: plan}))
	if strings.Contains(plain(m), "stalled:") {
		t.Fatal("stalled line shown before any report")
	}
	send(m, events(agent.ReportUpdated{Stalled: []string{"dig (6 rounds)"}}))
	if !strings.Contains(plain(m), "stalled: dig (6 rounds)") {
		t.Errorf("footer lacks the stalled step:\n%s", plain(m))
	}
}

func TestSilenceCountsUpOnTheSpinner(t *testing.T) {
	m := newTestModel(t, 120, 30)
	send(m, events(agent.StateChanged{To: agent.StateThinking}, agent.ProviderSilent{Provider: "openai", Quiet: 10 * time.Second, Timeout: 2 * time.Minute}))
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	send(m, spinMsg{at: t0}, spinMsg{at: t0.Add(13 * time.Second)})
	if !strings.Contains(plain(m), "waiting for openai: nothing for 23 s (gives up at 120 s)") {
		t.Fatalf("silence count:\n%s", plain(m))
	}
}
