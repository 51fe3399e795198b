package datalog

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

// bulkSessions inserts n sessions, one second apart, in one transaction.
func bulkSessions(t testing.TB, db *DB, n int) {
	t.Helper()
	tx, err := db.w.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		at := t0.Add(time.Duration(i) * time.Second)
		if _, err := tx.Exec(`INSERT INTO sessions (id, project_root, first_prompt, started_at, ended_at, stop_reason, rounds)
			VALUES (?, ?, ?, ?, ?, 'completed', 3)`, NewID(at), fmt.Sprintf("/p%d", i%7), "prompt", at.UnixNano(), at.UnixNano()); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestListPaginates10k(t *testing.T) {
	db := openTest(t, Options{})
	bulkSessions(t, db, 10_000)
	seen := map[string]bool{}
	var last time.Time
	for off := 0; ; off += 700 {
		page, err := db.ListSessions(context.Background(), Filter{Limit: 700, Offset: off})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, s := range page {
			if seen[s.ID] || (!last.IsZero() && s.Started.After(last)) {
				t.Fatalf("session %s repeated or out of order at offset %d", s.ID, off)
			}
			seen[s.ID], last = true, s.Started
		}
	}
	if len(seen) != 10_000 {
		t.Errorf("paged through %d sessions, want 10000", len(seen))
	}
	proj, _ := db.ListSessions(context.Background(), Filter{Project: "/p3", Since: t0.Add(5000 * time.Second)})
	if len(proj) != 715 {
		t.Errorf("project+since filter = %d sessions, want 715", len(proj))
	}
}

func benchRound(sid string, seq int) RoundRecord {
	rec := round(sid, seq, 1+seq/20,
		tc("a", "read_file", map[string]any{"path": "main.go", "offset": seq}, false),
		tc("b", "run_command", map[string]any{"command": "go test ./..."}, false))
	rec.Messages = append(rec.Messages, llm.Message{Role: llm.RoleUser, Content: "continue"})
	rec.Transitions = []StateTransition{{From: "thinking", To: "acting", At: t0}}
	return rec
}

func BenchmarkWriteRound(b *testing.B) {
	db := openTest(b, Options{Environ: []string{"OPENAI_API_KEY=sk-0123456789"}})
	sid := startTest(b, db, Session{})
	b.ResetTimer()
	for i := range b.N {
		if err := db.WriteRound(context.Background(), benchRound(sid, i+1)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkListSessions10k(b *testing.B) {
	db := openTest(b, Options{})
	bulkSessions(b, db, 10_000)
	for _, lim := range []int{50, 0} {
		b.Run(fmt.Sprintf("limit=%d", lim), func(b *testing.B) {
			for range b.N {
				if _, err := db.ListSessions(context.Background(), Filter{Limit: lim, Offset: 100}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLoadSession1000Rounds(b *testing.B) {
	db := openTest(b, Options{})
	sid := startTest(b, db, Session{})
	for i := range 1000 {
		mustWrite(b, db, benchRound(sid, i+1))
	}
	b.ResetTimer()
	for range b.N {
		d, err := db.LoadSession(context.Background(), sid)
		if err != nil || len(d.Rounds) != 1000 {
			b.Fatal(err, len(d.Rounds))
		}
	}
}

// BenchmarkQueueRound is what storing a round costs the agent before its
// next request: preparing it, handing it to the writer and waiting for
// its commit.
func BenchmarkQueueRound(b *testing.B) {
	db := openTest(b, Options{Environ: []string{"OPENAI_API_KEY=sk-0123456789"}})
	sid := startTest(b, db, Session{})
	b.ResetTimer()
	for i := range b.N {
		if err := db.QueueRound(context.Background(), benchRound(sid, i+1))(); err != nil {
			b.Fatal(err)
		}
	}
}
