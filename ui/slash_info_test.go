package ui

import (
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
)

func usageEvent(round, task, session llm.Usage, cost *float64) eventsMsg {
	return events(agent.UsageUpdated{Round: round, Task: task, Session: session, CostUSD: cost})
}

func TestCostCommand(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	r1 := llm.Usage{PromptTokens: 1000, CompletionTokens: 100}
	r2 := llm.Usage{PromptTokens: 2000, CompletionTokens: 200}
	r3 := llm.Usage{PromptTokens: 3456, CompletionTokens: 78}
	two := r1.Add(r2)
	tests := []struct {
		name   string
		events []eventsMsg
		want   []string
		not    []string
	}{
		{name: "nothing yet", want: []string{"no tokens used yet"}},
		{name: "one task", events: []eventsMsg{
			usageEvent(r1, r1, r1, f(0.01)), usageEvent(r2, two, two, f(0.03))},
			want: []string{"task     3,000 in · 300 out · $0.03", "session  3,000 in · 300 out · $0.03"}},
		{name: "the second task's own", events: []eventsMsg{
			usageEvent(r1, r1, r1, f(0.01)), usageEvent(r2, two, two, f(0.03)), usageEvent(r3, r3, two.Add(r3), f(0.0323))},
			want: []string{"task     3,456 in · 78 out · $0.0023", "session  6,456 in · 378 out · $0.032"}},
		{name: "no price", events: []eventsMsg{usageEvent(r1, r1, r1, nil)},
			want: []string{"1,000 in · 100 out · price unknown", "input_price_per_mtok"}, not: []string{"$"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, 120, 30)
			for _, e := range tt.events {
				send(m, e)
			}
			prompt(m, "/cost")
			s := plain(m)
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("/cost lacks %q:\n%s", w, s)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(s, w) {
					t.Errorf("/cost shows %q:\n%s", w, s)
				}
			}
		})
	}
}

func TestStatusCommand(t *testing.T) {
	m := newTestModel(t, 120, 30)
	m.opts.Status = StatusInfo{BaseURL: "https://user:pw@api.example.com:8443/v1?key=sk-secret", Workspace: "/work/p",
		Sandbox: "on (Landlock)", MCPServers: 1}
	prompt(m, "/status")
	s := plain(m)
	for _, w := range []string{"openai/gpt-test", "endpoint   api.example.com:8443", "workspace  /work/p",
		"session    none (the datalog is off)", "datalog    off", "sandbox    on (Landlock)", "1 server configured"} {
		if !strings.Contains(s, w) {
			t.Errorf("/status lacks %q:\n%s", w, s)
		}
	}
	for _, w := range []string{"pw", "sk-secret", "/v1"} {
		if strings.Contains(s, w) {
			t.Errorf("/status shows %q of the base URL:\n%s", w, s)
		}
	}
}

// TestCostAndStatusAreListed: /help and Tab completion offer both.
func TestCostAndStatusAreListed(t *testing.T) {
	m := newTestModel(t, 160, 48)
	send(m, press("?"))
	if s := plain(m); !strings.Contains(s, "/cost") || !strings.Contains(s, "/status") {
		t.Fatalf("? lacks /cost or /status:\n%s", s)
	}
	send(m, press("x"))
	m.input.Set("")
	typeText(m, "/st")
	send(m, press("tab"))
	if got := m.input.Value(); got != "/status " {
		t.Fatalf("tab completes /st to %q", got)
	}
	m.input.Set("")
	typeText(m, "/co")
	send(m, press("tab"))
	if s := plain(m); !strings.Contains(s, "/cost") || !strings.Contains(s, "/compact") {
		t.Fatalf("/co lists /compact and /cost:\n%s", s)
	}
}

// TestDemoStatusAndHistory: the demo names no endpoint and keeps no
// history file (its workspace is a new temporary copy each run).
func TestDemoStatusAndHistory(t *testing.T) {
	m := newTestModel(t, 120, 30)
	m.opts.Demo = true
	m.opts.HistoryFile = t.TempDir() + "/h.jsonl"
	m.opts.Status = StatusInfo{BaseURL: "https://api.openai.com/v1"}
	typeText(m, "/status")
	if _, cmd := m.Update(press("enter")); cmd != nil {
		t.Fatal("the demo saves no history")
	}
	if s := plain(m); strings.Contains(s, "api.openai.com") || !strings.Contains(s, "the demo's model is a script") {
		t.Fatalf("/status in the demo:\n%s", s)
	}
}
