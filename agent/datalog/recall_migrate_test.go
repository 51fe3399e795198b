package datalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

// recallScenario is two sessions of two projects as the agent writes
// them: prompts, a plan, tool calls (one repeated), an injected message,
// a compaction, a second task and answers.
func recallScenario() ([]Session, []RoundRecord) {
	sessions := []Session{
		{ID: "6b0000000000aaaa", ProjectRoot: "/src/app", Started: t0},
		{ID: "6b0000010000bbbb", ProjectRoot: "/src/lib", Started: t0.Add(time.Hour)},
	}
	user := func(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }
	asst := func(s string) llm.Message { return llm.Message{Role: llm.RoleAssistant, Content: s} }
	var rounds []RoundRecord
	for i, s := range sessions {
		lint := tc("l", "run_command", map[string]any{"command": "make lint"}, false)
		r1 := round(s.ID, 1, 1, lint, tc("r", "read_file", map[string]any{"path": fmt.Sprintf("pkg%d/parser.go", i)}, false))
		r1.Messages = append([]llm.Message{user(fmt.Sprintf("speed up the parser of project %d", i))}, r1.Messages...)
		r1.Plans = []PlanSnapshot{{Plan: json.RawMessage(`{"goal":"profile then optimise the parser"}`), At: t0}}
		r2 := round(s.ID, 2, 1, lint)
		r2.Messages = append([]llm.Message{user("Checkpoint: what did the last calls prove?")}, r2.Messages...)
		r3 := RoundRecord{Round: Round{SessionID: s.ID, Seq: 3, TaskSeq: 1, Started: t0.Add(3 * time.Minute)}, HistoryReset: true,
			Messages: []llm.Message{user("[keel compacted the earlier conversation]"), asst("the parser allocates per token")}}
		r4 := RoundRecord{Round: Round{SessionID: s.ID, Seq: 4, TaskSeq: 2, Started: t0.Add(4 * time.Minute)},
			Messages: []llm.Message{user("now cache the lexer tables"), asst("cached them in a sync.Once")}}
		rounds = append(rounds, r1, r2, r3, r4)
	}
	return sessions, rounds
}

// writeSchema5 writes sessions and rounds the way keel did before recall:
// a database migrated to schema version 5, written with the writer's own
// statements (the round's recall documents left out: the table did not
// exist).
func writeSchema5(t *testing.T, path string, sessions []Session, rounds []RoundRecord) {
	t.Helper()
	ctx := context.Background()
	raw, err := sql.Open("sqlite", dsn(path, time.Second, false))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	migs, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, raw, migs[:5]); err != nil {
		t.Fatal(err)
	}
	tx, err := raw.Begin()
	if err != nil {
		t.Fatal(err)
	}
	w := &wtx{tx: tx}
	for _, s := range sessions {
		if _, err := w.exec(ctx, stInsertSession, s.ID, s.ProjectRoot, "", "", "", "", "", "", nanos(s.Started)); err != nil {
			t.Fatal(err)
		}
	}
	old := &DB{opts: Options{Now: func() time.Time { return t0 }}, red: newRedactor(nil, nil)}
	for _, rec := range rounds {
		p, err := old.prepareRound(rec)
		if err != nil {
			t.Fatal(err)
		}
		p.recall = nil
		if err := p.insert(ctx, w); err != nil {
			t.Fatalf("write round %d of %s with schema 5: %v", rec.Round.Seq, rec.Round.SessionID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestMigrationIndexesAnExistingDatalog: a datalog written before recall
// is indexed when this keel first opens it, with exactly the documents
// the live writer makes for the same rounds.
func TestMigrationIndexesAnExistingDatalog(t *testing.T) {
	sessions, rounds := recallScenario()
	path := filepath.Join(t.TempDir(), "keel.db")
	writeSchema5(t, path, sessions, rounds)
	migrated, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("open a schema-5 datalog: %v", err)
	}
	defer migrated.Close()
	if v, want := migrated.SchemaVersion(), len(mustMigrations(t)); v != want {
		t.Fatalf("schema version %d after opening, want %d (every migration)", v, want)
	}
	live := openTest(t, Options{})
	for _, s := range sessions {
		startTest(t, live, s)
	}
	for _, r := range rounds {
		mustWrite(t, live, r)
	}
	got, want := recallRows(t, migrated), recallRows(t, live)
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) == 0 {
		t.Errorf("backfilled documents\n%s\nwant what the writer makes\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	hits := mustSearch(t, migrated, SearchQuery{Text: "lexer tables", Project: "/src/lib"})
	if len(hits) != 1 || hits[0].SessionID != sessions[1].ID || hits[0].Kind != RecallPrompt || hits[0].Round != 4 {
		t.Errorf("search after migration: %+v", hits)
	}
}

// TestMigrationIndexesEmptyAndSparseDatalogs: no sessions, and a session
// without rounds (keel was killed before its first answer), migrate.
func TestMigrationIndexesEmptyAndSparseDatalogs(t *testing.T) {
	for _, sessions := range [][]Session{nil, {{ID: "6b0000000000cccc", ProjectRoot: "/p", Started: t0}}} {
		path := filepath.Join(t.TempDir(), "keel.db")
		writeSchema5(t, path, sessions, nil)
		db, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		if rows := recallRows(t, db); len(rows) != 0 {
			t.Errorf("documents from nothing: %v", rows)
		}
		db.Close()
	}
}

// mustMigrations is the embedded migrations, one per schema version.
func mustMigrations(t *testing.T) []migration {
	t.Helper()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	return ms
}
