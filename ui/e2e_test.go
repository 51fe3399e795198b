package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/dialog"
	"github.com/keel-dev/keel/ui/transcript"
)

// echoTool is a side-effecting fake tool, so the permission policy asks.
type echoTool struct{}

func (echoTool) Name() string        { return "echo" }
func (echoTool) Description() string { return "echo its arguments" }
func (echoTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)
}
func (echoTool) Class() tools.Class { return tools.Execute }
func (echoTool) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	return tools.Result{Output: "echo " + string(args)}, nil
}

// askAll asks the user about every call.
type askAll struct{}

func (askAll) Decide(string, json.RawMessage) tools.Decision {
	return tools.Decision{Verdict: tools.Ask, Reason: "test policy", Grant: tools.Grant{Tool: "echo", Description: "echo: anything"}}
}
func (askAll) Grant(tools.Grant) {}

// TestRealSessionThroughTheUI runs a real agent session against the fake
// LLM server, with the UI's drain command and the Bridge in between: the
// permission dialog is answered with `a` from the UI goroutine while the
// agent goroutine waits.
func TestRealSessionThroughTheUI(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.Round{Text: "Let me check.", ToolCalls: []llmtest.Call{{Name: "echo", Args: `{"command":"hello"}`}}},
		llmtest.Round{Text: "All **done**."},
	))
	client := llm.New(llm.Config{Name: "fake", BaseURL: srv.URL(), APIKey: "k", APIKeyEnv: "FAKE_KEY", Model: "fake-model", IdleTimeout: 5 * time.Second})
	bridge := dialog.NewBridge()
	pol := config.DefaultDisciplinePolicy(true)
	pol.ReflectionCadence = 0
	s := agent.New(agent.Options{
		Provider:     &agent.RetryingProvider{Clients: []*llm.Client{client}},
		ProviderName: "fake", Model: "fake-model", Tools: []tools.Tool{echoTool{}},
		Permissions: askAll{}, Gate: bridge, Asker: bridge, Discipline: pol, SystemPrompt: "test",
	})
	t.Cleanup(s.Close)
	dark := true
	m := New(Options{Session: s, Bridge: bridge, Model: "fake-model", Width: 100, Height: 30, Dark: &dark})

	typeText(m, "say hello")
	_, cmd := m.Update(press("enter"))
	runAsync(cmd)
	deadline := time.After(time.Minute)
	asked := false
	for {
		msgc := make(chan tea.Msg, 1)
		go func() { msgc <- m.drain()() }()
		var msg tea.Msg
		select {
		case msg = <-msgc:
		case <-deadline:
			t.Fatalf("the task did not finish:\n%s", plain(m))
		}
		send(m, msg)
		if _, ok := msg.(requestMsg); ok {
			if !strings.Contains(plain(m), "Allow echo?") || !strings.Contains(plain(m), "hello") {
				t.Fatalf("permission dialog:\n%s", plain(m))
			}
			asked = true
			send(m, press("a"))
		}
		if em, ok := msg.(eventsMsg); ok && stopped(em) {
			break
		}
	}
	send(m, transcript.FrameMsg{})
	screen := plain(m)
	if !asked || !strings.Contains(screen, "✓ echo hello") || !strings.Contains(screen, "All done.") || !strings.Contains(screen, "allowed echo once") {
		t.Fatalf("final screen:\n%s", screen)
	}
	if m.running {
		t.Fatal("the UI should know the task ended")
	}
}

func stopped(em eventsMsg) bool {
	for _, ev := range em.events {
		if _, ok := ev.(agent.TaskStopped); ok {
			return true
		}
	}
	return false
}

// runAsync runs a command (and a batch's commands) on goroutines, as
// Bubble Tea does, discarding their messages.
func runAsync(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if b, ok := cmd().(tea.BatchMsg); ok {
			for _, c := range b {
				runAsync(c)
			}
		}
	}()
}
