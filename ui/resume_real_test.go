package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
)

// TestResumedAfterCompactAndResume records a real agent session in a real
// datalog: a task, /compact, a task, then a resume and another task (the
// first round after a compaction or a resume stores the history again).
// The replayed transcript has each prompt and answer once and no
// compaction summary as a user turn.
func TestResumedAfterCompactAndResume(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.Round{Text: "Let me check.", ToolCalls: []llmtest.Call{{Name: "echo", Args: `{"command":"hello"}`}}},
		llmtest.Round{Text: "First done."},
		llmtest.Round{Text: "Summary: echo said hello."}, // /compact's summary
		llmtest.Round{Text: "Second done."},
		llmtest.Round{Text: "Third done."},
	))
	db, sid := testDatalog(t, t.TempDir())
	client := llm.New(llm.Config{Name: "fake", BaseURL: srv.URL(), APIKey: "k", APIKeyEnv: "FAKE_KEY", Model: "fake-model", IdleTimeout: 5 * time.Second})
	session := func(hist []llm.Message, rewrite bool, taskSeq, roundSeq int) *agent.Session {
		pol := config.DefaultDisciplinePolicy(true)
		pol.ReflectionCadence = 0
		s := agent.New(agent.Options{Provider: &agent.RetryingProvider{Clients: []*llm.Client{client}},
			ProviderName: "fake", Model: "fake-model", Tools: []tools.Tool{echoTool{}}, Discipline: pol, SystemPrompt: "test",
			Limits: agent.Limits{KeepRounds: 1}, History: hist, TaskSeq: taskSeq, RoundSeq: roundSeq, SessionID: sid, Recorder: agent.NewRecorder(db, sid, 0, rewrite)})
		t.Cleanup(s.Close)
		return s
	}
	s := session(nil, false, 0, 0)
	runTask(t, s, "first task")
	if _, err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	runTask(t, s, "second task")
	s.Close()
	hist, err := db.LoadHistory(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := db.GetSession(ctx, sid) // as keel -c continues the numbering (loadResumed)
	if err != nil {
		t.Fatal(err)
	}
	runTask(t, session(hist, true, 2, rec.Totals.Rounds), "third task") // resumed: its first round stores the history again

	d, err := db.LoadTranscript(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, 100, 60)
	m.tr.LoadLog(d)
	screen := plain(m)
	for _, once := range []string{"› first task", "✓ echo hello", "Let me check.", "First done.", "› second task", "Second done.", "› third task", "Third done."} {
		if n := strings.Count(screen, once); n != 1 {
			t.Errorf("%q shows %d times:\n%s", once, n, screen)
		}
	}
	if strings.Contains(screen, "compacted") || strings.Contains(screen, "Summary:") {
		t.Errorf("the compaction shows as a user turn:\n%s", screen)
	}
}

// runTask submits prompt and waits for the task to stop.
func runTask(t *testing.T, s *agent.Session, prompt string) {
	t.Helper()
	if err := s.Submit(context.Background(), prompt); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(time.Minute)
	for {
		select {
		case ev := <-s.Events():
			if st, ok := ev.(agent.TaskStopped); ok {
				if st.Reason != agent.StopCompleted {
					t.Fatalf("task %q stopped: %s %s", prompt, st.Reason, st.Message)
				}
				return
			}
		case <-deadline:
			t.Fatalf("task %q did not finish", prompt)
		}
	}
}
