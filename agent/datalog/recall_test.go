package datalog

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

// pastSession writes a one-task session of project root: the prompt and
// a plan with the round that called tools, then the answer.
func pastSession(t testing.TB, db *DB, root, prompt, goal, answer string, calls ...ToolCall) string {
	t.Helper()
	sid := startTest(t, db, Session{ProjectRoot: root})
	r1 := round(sid, 1, 1, calls...)
	r1.Messages = append([]llm.Message{{Role: llm.RoleUser, Content: prompt}}, r1.Messages...)
	plan, _ := json.Marshal(map[string]any{"goal": goal, "status": "active"})
	r1.Plans = []PlanSnapshot{{Plan: plan, At: t0}}
	mustWrite(t, db, r1)
	r2 := RoundRecord{Round: Round{SessionID: sid, Seq: 2, TaskSeq: 1, Started: t0.Add(2 * time.Minute)},
		Messages: []llm.Message{{Role: llm.RoleAssistant, Content: answer}}}
	mustWrite(t, db, r2)
	return sid
}

func mustSearch(t testing.TB, db *DB, q SearchQuery) []Hit {
	t.Helper()
	hits, err := db.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%+v): %v", q, err)
	}
	return hits
}

func TestRecallFindsEachKindOfText(t *testing.T) {
	db := openTest(t, Options{})
	sid := pastSession(t, db, "/src/app", "why does the datalog writer stall under load?",
		"find the lock held across the fsync", "The writer held its mutex during the checkpoint.",
		tc("a", "run_command", map[string]any{"command": "go test -run TestWriterStall ./agent/datalog"}, false),
		tc("b", "read_file", map[string]any{"path": "agent/datalog/writer.go"}, false))
	cases := []struct {
		query, kind, marked string
		round               int
	}{
		{"stall", RecallPrompt, "**stall**", 1},
		{"mutex checkpoint", RecallAnswer, "**mutex**", 2},
		{"fsync", RecallPlan, "**fsync**", 1},
		{"TestWriterStall", RecallCalls, "run_command go test -run **TestWriterStall**", 1},
		{"writer.go", RecallCalls, "read_file agent/datalog/**writer**.**go**", 1},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			hits := mustSearch(t, db, SearchQuery{Text: c.query, Project: "/src/app"})
			if len(hits) == 0 {
				t.Fatal("no hits")
			}
			h := hits[0]
			if h.Kind != c.kind || h.SessionID != sid || h.Round != c.round || h.Project != "/src/app" {
				t.Errorf("first hit = %+v, want %s of round %d of %s", h, c.kind, c.round, sid)
			}
			if !strings.Contains(h.Snippet, c.marked) {
				t.Errorf("snippet %q does not mark %q", h.Snippet, c.marked)
			}
			if h.At.IsZero() {
				t.Error("hit has no date")
			}
		})
	}
}

func TestRecallScopesToTheProject(t *testing.T) {
	db := openTest(t, Options{})
	a := pastSession(t, db, "/src/a", "fix the flaky parser test", "fix it", "done")
	b := pastSession(t, db, "/src/b", "the parser is flaky here too", "fix it", "done")
	// A project whose root extends /src/a is another project.
	c := pastSession(t, db, "/src/a/sub", "a flaky parser again", "fix it", "done")
	cases := []struct {
		name, project string
		want          []string
	}{
		{"this project", "/src/a", []string{a}},
		{"another project", "/src/b", []string{b}},
		{"a nested project", "/src/a/sub", []string{c}},
		{"every project", "", []string{a, b, c}},
		{"a project without sessions", "/src/none", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string]bool{}
			for _, h := range mustSearch(t, db, SearchQuery{Text: "flaky parser", Project: tc.project}) {
				got[h.SessionID] = true
			}
			if len(got) != len(tc.want) {
				t.Errorf("sessions %v, want %v", got, tc.want)
			}
			for _, id := range tc.want {
				if !got[id] {
					t.Errorf("session %s missing from %v", id, got)
				}
			}
		})
	}
}

func TestRecallLeavesOutTheExcludedSession(t *testing.T) {
	db := openTest(t, Options{})
	old := pastSession(t, db, "/p", "migrate the config loader", "g", "a")
	cur := pastSession(t, db, "/p", "migrate the config loader again", "g", "a")
	hits := mustSearch(t, db, SearchQuery{Text: "config loader", Project: "/p", Exclude: cur})
	if len(hits) == 0 {
		t.Fatal("no hits")
	}
	for _, h := range hits {
		if h.SessionID != old {
			t.Errorf("hit of session %s, want only %s", h.SessionID, old)
		}
	}
}

func TestRecallIndexFollowsWritesAndPrune(t *testing.T) {
	db := openTest(t, Options{})
	ctx := context.Background()
	if hits := mustSearch(t, db, SearchQuery{Text: "quaternion"}); len(hits) != 0 {
		t.Fatalf("hits before any write: %v", hits)
	}
	sid := pastSession(t, db, "/p", "normalise the quaternion", "g", "a")
	if hits := mustSearch(t, db, SearchQuery{Text: "quaternion"}); len(hits) != 1 {
		t.Fatalf("after the write: %v", hits)
	}
	second := RoundRecord{Round: Round{SessionID: sid, Seq: 3, TaskSeq: 2, Started: t0.Add(time.Hour)},
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "now the slerp"}, {Role: llm.RoleAssistant, Content: "slerp done"}}}
	mustWrite(t, db, second)
	hits := mustSearch(t, db, SearchQuery{Text: "slerp"})
	if len(hits) != 2 || hits[0].Round != 3 {
		t.Fatalf("the second task's prompt and answer: %+v", hits)
	}
	if _, err := db.Prune(ctx, t0.Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if hits := mustSearch(t, db, SearchQuery{Text: "quaternion slerp"}); len(hits) != 0 {
		t.Errorf("hits after prune: %v", hits)
	}
	var n int
	if err := db.read.QueryRow(`SELECT count(*) FROM recall_docs`).Scan(&n); err != nil || n != 0 {
		t.Errorf("recall_docs keeps %d rows after prune (%v)", n, err)
	}
}

// TestRecallIndexesPromptsNotKeelsMessages: a task's prompt is its first
// user message; what keel injects later in the task, a compaction's
// summary and a history stored again are not prompts, and a text the
// session has already is not indexed twice.
func TestRecallIndexesPromptsNotKeelsMessages(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	user := func(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }
	asst := func(s string) llm.Message { return llm.Message{Role: llm.RoleAssistant, Content: s} }
	cmd := tc("c", "run_command", map[string]any{"command": "make lint"}, false)
	r1 := round(sid, 1, 1, cmd)
	r1.Messages = append([]llm.Message{user("tidy the importer")}, r1.Messages...)
	r2 := round(sid, 2, 1, cmd)
	r2.Messages = append([]llm.Message{user("Checkpoint: restate the task")}, r2.Messages...)
	r3 := RoundRecord{Round: Round{SessionID: sid, Seq: 3, TaskSeq: 1}, HistoryReset: true,
		Messages: []llm.Message{user("[keel compacted the earlier conversation]"), user("tidy the importer"), asst("importer tidied")}}
	r4 := RoundRecord{Round: Round{SessionID: sid, Seq: 4, TaskSeq: 2}, HistoryReset: true,
		Messages: []llm.Message{user("tidy the importer"), asst("importer tidied"), user("now the exporter"), asst("exporter too")}}
	for _, r := range []RoundRecord{r1, r2, r3, r4} {
		mustWrite(t, db, r)
	}
	want := []string{"prompt:tidy the importer", "calls:run_command make lint", "answer:importer tidied",
		"prompt:now the exporter", "answer:exporter too"}
	if got := recallRows(t, db); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("indexed\n%q\nwant\n%q", got, want)
	}
}

// recallRows lists the indexed texts as kind:text, in insertion order.
func recallRows(t testing.TB, db *DB) []string {
	t.Helper()
	rows, err := db.read.Query(`SELECT kind, text FROM recall_docs ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k, text string
		if err := rows.Scan(&k, &text); err != nil {
			t.Fatal(err)
		}
		out = append(out, k+":"+text)
	}
	return out
}

func TestRecallIndexesOnlyRedactedText(t *testing.T) {
	db := openTest(t, secOptions())
	pastSession(t, db, "/p", "deploy with key "+secEnvKey+" please", "ship it", "deployed")
	for _, q := range []string{secEnvKey, "0123456789abcdef", "sk-test"} {
		for _, h := range mustSearch(t, db, SearchQuery{Text: q}) {
			if strings.Contains(h.Snippet, "0123456789abcdef") {
				t.Errorf("search %q: snippet holds the secret: %q", q, h.Snippet)
			}
		}
	}
	hits := mustSearch(t, db, SearchQuery{Text: "deploy key"})
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet, "[REDACTED:OPENAI_API_") {
		t.Errorf("hits %+v: want the prompt with its redaction mark", hits)
	}
}

func TestRecallIndexesTheLastPlanOfATask(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	plan := json.RawMessage(`{"goal":"rewrite the tokenizer","status":"done"}`)
	if err := db.EndTask(context.Background(), sid, 1, nil, []PlanSnapshot{{Plan: plan, At: t0}}, "completed", Totals{}); err != nil {
		t.Fatal(err)
	}
	hits := mustSearch(t, db, SearchQuery{Text: "tokenizer"})
	if len(hits) != 1 || hits[0].Kind != RecallPlan {
		t.Errorf("hits %+v, want the plan's goal", hits)
	}
}
