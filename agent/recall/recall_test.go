package recall

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// pastSession records a finished session of root whose prompt is prompt.
func pastSession(t *testing.T, db *datalog.DB, root, prompt string) string {
	t.Helper()
	ctx := context.Background()
	id, err := db.StartSession(ctx, datalog.Session{ProjectRoot: root, Started: t0})
	if err != nil {
		t.Fatal(err)
	}
	rec := datalog.RoundRecord{Round: datalog.Round{SessionID: id, Seq: 1, TaskSeq: 1, Started: t0},
		Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt}, {Role: llm.RoleAssistant, Content: "done"}}}
	if err := db.WriteRound(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := db.EndSession(ctx, id, "completed", datalog.Totals{}); err != nil {
		t.Fatal(err)
	}
	return id
}

// opener opens the datalog at path read-only, as keel does.
func opener(path string) func() (*datalog.DB, error) {
	return func() (*datalog.DB, error) { return datalog.Open(path, datalog.Options{ReadOnly: true}) }
}

// TestRecallThroughTheLoop: the model calls recall in a real session
// (fake LLM over HTTP, the datalog recorded by the session itself) and
// gets the past session's prompt with its id; the running session, whose
// prompt holds the same words, is left out, and so is another project.
func TestRecallThroughTheLoop(t *testing.T) {
	root, path := t.TempDir(), filepath.Join(t.TempDir(), "keel.db")
	db, err := datalog.Open(path, datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	past := pastSession(t, db, root, "make the flaky parser test deterministic")
	other := pastSession(t, db, "/elsewhere", "the flaky parser of another project")
	current, err := db.StartSession(context.Background(), datalog.Session{ProjectRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	rec := agent.NewRecorder(db, current, 0, false)
	tool := New(Options{Open: opener(path), Root: root})
	tool.Exclude(rec.SessionID)

	// The second call runs after the first round, which holds this
	// session's prompt (the same words), is committed.
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{ID: "c1", Name: Name, Args: `{"query":"deterministic"}`}),
		llmtest.ToolRound(llmtest.Call{ID: "c2", Name: Name, Args: `{"query":"flaky parser"}`}),
		llmtest.TextRound("It was fixed before."),
	))
	client := llm.New(llm.Config{Name: "fake", BaseURL: srv.URL(), APIKey: "k", Model: "m", IdleTimeout: 5 * time.Second})
	s := agent.New(agent.Options{Provider: &agent.RetryingProvider{Clients: []*llm.Client{client}}, ProviderName: "fake", Model: "m",
		Discipline: config.DefaultDisciplinePolicy(true), SystemPrompt: "test", Tools: []tools.Tool{tool}, Recorder: rec, SessionID: current})
	defer s.Close()
	runTask(t, s, "what did we do about the flaky parser before?")

	if hits, _ := db.Search(context.Background(), datalog.SearchQuery{Text: "flaky parser", Project: root}); len(hits) != 2 {
		t.Fatalf("the running session's prompt is not indexed: %+v", hits)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	msgs := reqs[2].Messages
	result := msgs[len(msgs)-1].Content
	if !strings.Contains(result, datalog.ShortID(past)) || !strings.Contains(result, "**flaky** **parser**") {
		t.Errorf("recall result lacks the past session %s:\n%s", datalog.ShortID(past), result)
	}
	for _, id := range []string{current, other} {
		if strings.Contains(result, datalog.ShortID(id)) {
			t.Errorf("recall result holds session %s:\n%s", datalog.ShortID(id), result)
		}
	}
}

// runTask submits prompt and waits for the task to stop.
func runTask(t *testing.T, s *agent.Session, prompt string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Submit(ctx, prompt); err != nil {
		t.Fatal(err)
	}
	for ev := range s.Events() {
		if st, ok := ev.(agent.TaskStopped); ok {
			if st.Reason != agent.StopCompleted {
				t.Fatalf("task stopped: %s %s", st.Reason, st.Message)
			}
			return
		}
	}
	t.Fatal("events closed before the task stopped")
}

func TestRecallResults(t *testing.T) {
	root, path := t.TempDir(), filepath.Join(t.TempDir(), "keel.db")
	db, err := datalog.Open(path, datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	here := pastSession(t, db, root, "tune the lexer cache")
	there := pastSession(t, db, "/other", "tune the lexer cache there")
	db.Close()
	cases := []struct {
		name, args string
		open       func() (*datalog.DB, error)
		isErr      bool
		has, hasnt []string
	}{
		{"this project", `{"query":"lexer cache"}`, opener(path), false,
			[]string{datalog.ShortID(here), "the user asked: tune the **lexer** **cache**", "2026-03-01"}, []string{datalog.ShortID(there)}},
		{"all projects", `{"query":"lexer cache","all_projects":true}`, opener(path), false,
			[]string{datalog.ShortID(here), datalog.ShortID(there), "(project /other)"}, nil},
		{"nothing found", `{"query":"zeppelin"}`, opener(path), false, []string{"nothing in this project's past sessions", "all_projects=true"}, nil},
		{"an operator-laden query", `{"query":"\"lexer AND (cache"}`, opener(path), false, []string{"nothing in"}, nil},
		{"empty query", `{"query":"  "}`, opener(path), true, []string{"query is empty"}, nil},
		{"unknown argument", `{"query":"x","project":"/p"}`, opener(path), true, []string{"invalid arguments"}, nil},
		{"no datalog yet", `{"query":"x"}`, opener(filepath.Join(t.TempDir(), "none.db")), false, []string{"no past sessions"}, nil},
		{"no datalog in this run", `{"query":"x"}`, nil, true, []string{"no datalog"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := New(Options{Open: c.open, Root: root}).Run(context.Background(), json.RawMessage(c.args))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.IsError != c.isErr {
				t.Errorf("IsError = %v, want %v: %s", res.IsError, c.isErr, res.Output)
			}
			for _, s := range c.has {
				if !strings.Contains(res.Output, s) {
					t.Errorf("output lacks %q:\n%s", s, res.Output)
				}
			}
			for _, s := range c.hasnt {
				if strings.Contains(res.Output, s) {
					t.Errorf("output holds %q:\n%s", s, res.Output)
				}
			}
		})
	}
}

func TestRecallIsReadOnlyWithASchema(t *testing.T) {
	tool := New(Options{})
	var schema struct {
		Required   []string       `json:"required"`
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(tool.Schema(), &schema); err != nil {
		t.Fatal(err)
	}
	if tool.Class() != tools.ReadOnly || tool.Name() != "recall" || len(schema.Required) != 1 || schema.Required[0] != "query" {
		t.Errorf("class %v name %q schema %s", tool.Class(), tool.Name(), tool.Schema())
	}
	if _, ok := schema.Properties["all_projects"]; !ok {
		t.Errorf("no all_projects parameter: %s", tool.Schema())
	}
}
