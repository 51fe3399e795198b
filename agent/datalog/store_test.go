package datalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

func schemaDump(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query(`SELECT type, name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, s string
		if err := rows.Scan(&typ, &name, &s); err != nil {
			t.Fatal(err)
		}
		b.WriteString(typ + " " + name + " " + s + "\n")
	}
	return b.String()
}

func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path, time.Second, false))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestMigrationsFromEveryVersion applies each prefix of the migration
// list, then the rest, and expects the schema of a fresh database.
func TestMigrationsFromEveryVersion(t *testing.T) {
	migs, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	fresh := rawDB(t, filepath.Join(t.TempDir(), "fresh.db"))
	if err := migrate(ctx, fresh, migs); err != nil {
		t.Fatal(err)
	}
	want := schemaDump(t, fresh)
	for k := 0; k <= len(migs); k++ {
		t.Run(migs[max(k-1, 0)].name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.db")
			old := rawDB(t, path)
			if err := migrate(ctx, old, migs[:k]); err != nil {
				t.Fatal(err)
			}
			if v, _ := schemaVersion(ctx, old); v != k {
				t.Fatalf("version after %d migrations = %d", k, v)
			}
			old.Close()
			db, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if db.SchemaVersion() != len(migs) {
				t.Errorf("version = %d, want %d", db.SchemaVersion(), len(migs))
			}
			if got := schemaDump(t, db.read); got != want {
				t.Errorf("schema from version %d differs:\n%s\nwant:\n%s", k, got, want)
			}
		})
	}
}

func TestNewerSchemaRefusesWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keel.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	startTest(t, db, Session{ProjectRoot: "/p"})
	db.Close()
	if _, err := rawDB(t, path).Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{false, true} {
		db, err := Open(path, Options{ReadOnly: ro})
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.StartSession(context.Background(), Session{})
		var ne *NewerSchemaError
		if !errors.As(err, &ne) || !strings.Contains(err.Error(), "newer keel") {
			t.Errorf("readOnly=%v: write error = %v, want a NewerSchemaError", ro, err)
		}
		if list, err := db.ListSessions(context.Background(), Filter{}); err != nil || len(list) != 1 {
			t.Errorf("readOnly=%v: list = %v, %v; want the one session", ro, list, err)
		}
		db.Close()
	}
}

func TestOpenCreatesPrivateFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data", "keel")
	db, err := Open(filepath.Join(dir, "keel.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "keel.db"): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s mode = %v, want %v", path, got, want)
		}
	}
	var mode string
	var fk, sync int
	db.read.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	db.w.db.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
	db.w.db.QueryRow(`PRAGMA synchronous`).Scan(&sync)
	if mode != "wal" || fk != 1 || sync != 1 {
		t.Errorf("journal_mode=%s foreign_keys=%d synchronous=%d, want wal 1 1", mode, fk, sync)
	}
}

func TestOpenBadPath(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	tests := []struct {
		name, path string
		opts       Options
		want       string
	}{
		{"parent is a file", filepath.Join(file, "keel.db"), Options{}, "writable place"},
		{"read-only, missing", filepath.Join(t.TempDir(), "none.db"), Options{ReadOnly: true}, "run keel once"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Open(tt.path, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{CaptureBodies: true})
	sid := startTest(t, db, Session{ProjectRoot: "/p", Cwd: "/p/sub", GitBranch: "main", Provider: "openai",
		Model: "m", Config: json.RawMessage(`{"a":1}`), FirstPrompt: "fix it"})
	rec := round(sid, 1, 1, tc("c1", "read_file", map[string]any{"path": "a.go"}, false),
		tc("c2", "run_command", map[string]any{"command": "go test"}, true))
	rec.ToolCalls[0].Permission, rec.ToolCalls[0].DecidedBy = "allow", DecidedByRule
	rec.Interventions = []Intervention{{Kind: "reflection", AtToolCall: 10, Figures: json.RawMessage(`{"delta":10}`), Message: "checkpoint"}}
	rec.Plans = []PlanSnapshot{{Attempt: 1, Status: "active", Plan: json.RawMessage(`{"goal":"g"}`), At: t0}}
	rec.Transitions = []StateTransition{{From: "thinking", To: "acting", Detail: "2 calls", At: t0}}
	rec.FileChanges = []FileChange{{ToolCallID: "c3", Path: "/p/a.go", Existed: true, Before: []byte("a"), After: []byte("b"), Mode: 0o644}}
	rec.Request, rec.Response = []byte(`{"req":1}`), []byte(`{"resp":1}`)
	mustWrite(t, db, rec)
	mustWrite(t, db, round(sid, 2, 1))
	if err := db.UpdateInterventionReply(ctx, sid, 1, 0, "I will edit now"); err != nil {
		t.Fatal(err)
	}
	if err := db.EndSession(ctx, sid, "completed", Totals{}); err != nil {
		t.Fatal(err)
	}
	d, err := db.LoadSession(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Session
	if s.StopReason != "completed" || s.Totals.Rounds != 2 || s.Totals.ToolCalls != 2 || s.Totals.TokensIn != 200 ||
		s.FirstPrompt != "fix it" || s.GitBranch != "main" || string(s.Config) != `{"a":1}` || s.Ended.IsZero() {
		t.Errorf("session = %+v", s)
	}
	if len(d.Rounds) != 2 {
		t.Fatalf("rounds = %d, want 2", len(d.Rounds))
	}
	r1 := d.Rounds[0]
	wantRound := rec.Round
	wantRound.Started = r1.Round.Started // location differs; compare instant below
	if !reflect.DeepEqual(r1.Round, wantRound) || !r1.Round.Started.Equal(rec.Round.Started) {
		t.Errorf("round = %+v, want %+v", r1.Round, rec.Round)
	}
	got := r1.ToolCalls[1]
	if got.Name != "run_command" || !got.IsError || got.Result != "out c2" || got.ResultSize != 6 || got.Duration != time.Millisecond {
		t.Errorf("tool call = %+v", got)
	}
	if r1.ToolCalls[0].DecidedBy != DecidedByRule || r1.ToolCalls[0].Permission != "allow" {
		t.Errorf("permission = %+v", r1.ToolCalls[0])
	}
	if iv := r1.Interventions; len(iv) != 1 || iv[0].Reply != "I will edit now" || string(iv[0].Figures) != `{"delta":10}` {
		t.Errorf("interventions = %+v", iv)
	}
	if len(r1.Plans) != 1 || len(r1.Transitions) != 1 || len(r1.FileChanges) != 1 || len(r1.Messages) != 3 {
		t.Errorf("round 1 children: %d plans %d transitions %d changes %d messages", len(r1.Plans),
			len(r1.Transitions), len(r1.FileChanges), len(r1.Messages))
	}
	if req, resp, _ := db.LoadBodies(ctx, sid, 1); string(req) != `{"req":1}` || string(resp) != `{"resp":1}` {
		t.Errorf("bodies = %s %s", req, resp)
	}
	if p, _ := db.LatestPlan(ctx, sid); p == nil || p.Attempt != 1 || string(p.Plan) != `{"goal":"g"}` {
		t.Errorf("latest plan = %+v", p)
	}
}

func TestResultCapped(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	big := strings.Repeat("é", MaxResultBytes) // 2 bytes each: cap lands mid-rune
	c := ToolCall{CallID: "c", Name: "run_command", Result: big}
	mustWrite(t, db, RoundRecord{Round: Round{SessionID: sid, Seq: 1}, ToolCalls: []ToolCall{c}})
	d, _ := db.LoadSession(context.Background(), sid)
	got := d.Rounds[0].ToolCalls[0]
	if len(got.Result) > MaxResultBytes || got.ResultSize != len(big) || !strings.HasSuffix(got.Result, "é") {
		t.Errorf("stored %d bytes (size %d), want ≤ %d and size %d", len(got.Result), got.ResultSize, MaxResultBytes, len(big))
	}
}

func TestLoadHistoryByteIdentical(t *testing.T) {
	sys := llm.Message{Role: llm.RoleSystem, Content: "you are keel <&>"}
	user := llm.Message{Role: llm.RoleUser, Content: "fix \"it\"\n\tnow ✓"}
	asst := func(ids ...string) llm.Message {
		m := llm.Message{Role: llm.RoleAssistant, Content: "", Reasoning: "think"}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: id, Name: "read_file", Arguments: `{"path":"a\u00e9.go"}`})
		}
		return m
	}
	res := func(id string) llm.Message {
		return llm.Message{Role: llm.RoleTool, Content: "line1\nline2", ToolCallID: id, Name: "read_file"}
	}
	interrupted := func(id string) llm.Message {
		return llm.Message{Role: llm.RoleTool, Content: InterruptedResult, ToolCallID: id, Name: "read_file"}
	}
	tests := []struct {
		name   string
		rounds [][]llm.Message
		reset  int // round whose messages replace the history; 0 none
		want   []llm.Message
	}{
		{"complete", [][]llm.Message{{sys, user, asst("a"), res("a")}, {asst(), user}}, 0,
			[]llm.Message{sys, user, asst("a"), res("a"), asst(), user}},
		{"interrupted calls", [][]llm.Message{{sys, user, asst("a", "b", "c"), res("b")}}, 0,
			[]llm.Message{sys, user, asst("a", "b", "c"), res("b"), interrupted("a"), interrupted("c")}},
		{"interrupted at the end", [][]llm.Message{{sys, user}, {asst("x")}}, 0,
			[]llm.Message{sys, user, asst("x"), interrupted("x")}},
		{"compaction", [][]llm.Message{{sys, user, asst("a"), res("a")}, {sys, user}, {asst()}}, 2,
			[]llm.Message{sys, user, asst()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openTest(t, Options{})
			sid := startTest(t, db, Session{})
			for i, msgs := range tt.rounds {
				mustWrite(t, db, RoundRecord{Round: Round{SessionID: sid, Seq: i + 1}, Messages: msgs, HistoryReset: tt.reset == i+1})
			}
			got, err := db.LoadHistory(context.Background(), sid)
			if err != nil {
				t.Fatal(err)
			}
			gb, _ := json.Marshal(got)
			wb, _ := json.Marshal(tt.want)
			if string(gb) != string(wb) {
				t.Errorf("history:\n%s\nwant:\n%s", gb, wb)
			}
		})
	}
}

func TestUnendedSessionIsInterrupted(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	mustWrite(t, db, round(sid, 1, 1))
	s, err := db.LatestSession(context.Background(), "/p")
	if err != nil || s.ID != sid || s.StopReason != StopInterrupted || s.Totals.Rounds != 1 {
		t.Fatalf("latest = %+v, %v; want %s interrupted with 1 round", s, err, sid)
	}
}

func TestResolveID(t *testing.T) {
	db := openTest(t, Options{})
	for _, id := range []string{"69a1b2c300000001", "69a1b2c300000002", "69a1b2d4ffffffff"} {
		startTest(t, db, Session{ID: id})
	}
	tests := []struct {
		prefix, want, err string
	}{
		{"69a1b2d", "69a1b2d4ffffffff", ""},
		{"69A1B2C300000002", "69a1b2c300000002", ""},
		{"69a1b2c", "", "ambiguous"},
		{"69a1b2c3", "", "69a1b2c300000001, 69a1b2c300000002"},
		{"7", "", "no such session"},
		{"zz", "", "no such session"},
		{"", "", "no such session"},
	}
	for _, tt := range tests {
		got, err := db.ResolveID(context.Background(), tt.prefix)
		if got != tt.want || (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("ResolveID(%q) = %q, %v; want %q, error with %q", tt.prefix, got, err, tt.want, tt.err)
		}
	}
}

func TestTaskFileChangesAndUndo(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	for i, task := range []int{1, 2, 2} {
		rec := round(sid, i+1, task)
		rec.FileChanges = []FileChange{{Path: "/f" + string(rune('a'+i)), Existed: i > 0, Before: []byte("x"), After: []byte("y"), Mode: 0o600}}
		mustWrite(t, db, rec)
	}
	fcs, err := db.TaskFileChanges(ctx, sid)
	if err != nil || len(fcs) != 2 || fcs[0].Path != "/fb" || fcs[1].Path != "/fc" || string(fcs[1].Before) != "x" || fcs[1].Mode != 0o600 {
		t.Fatalf("last task changes = %+v, %v", fcs, err)
	}
	markUndone(t, db, sid, []int64{fcs[0].ID, fcs[1].ID})
	fcs, _ = db.TaskFileChanges(ctx, sid)
	if len(fcs) != 1 || fcs[0].Path != "/fa" {
		t.Fatalf("after undo, changes = %+v; want task 1's", fcs)
	}
}

func TestRoundTaskSeq(t *testing.T) {
	db := openTest(t, Options{})
	ctx := context.Background()
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	other := startTest(t, db, Session{ProjectRoot: "/p"})
	for seq, task := range []int{1, 1, 2, 3} {
		mustWrite(t, db, round(sid, seq+1, task))
	}
	mustWrite(t, db, round(other, 1, 7))
	tests := []struct {
		id        string
		seq, want int
	}{
		{sid, 1, 1},
		{sid, 3, 2},
		{sid, 4, 3},
		{sid, 5, 0}, // no such round
		{other, 1, 7},
		{"no-such-session", 1, 0},
	}
	for _, tt := range tests {
		got, err := db.RoundTaskSeq(ctx, tt.id, tt.seq)
		if err != nil || got != tt.want {
			t.Errorf("RoundTaskSeq(%s, %d) = %d, %v; want %d", tt.id, tt.seq, got, err, tt.want)
		}
	}
}
