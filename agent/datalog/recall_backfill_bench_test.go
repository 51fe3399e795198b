package datalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

// BenchmarkRecallBackfill10k times the first open of a 10,000-session
// datalog written before recall (schema 5): migration 0006 and the
// backfill of its index. Each session has two tasks over six rounds: 14
// messages (tool results of about 1 KB), 8 tool calls and a plan. Not in
// cmd/keelbench/budgets.json: it runs once per datalog, at an upgrade.
//
//	go test -run '^$' -bench RecallBackfill10k -benchtime 1x ./agent/datalog
func BenchmarkRecallBackfill10k(b *testing.B) {
	src := filepath.Join(b.TempDir(), "v5.db")
	start := time.Now()
	if err := fillSchema5(src, benchSessions); err != nil {
		b.Fatal(err)
	}
	b.Logf("made a schema-5 datalog of %d sessions in %v", benchSessions, time.Since(start).Round(time.Millisecond))
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dst := filepath.Join(b.TempDir(), "keel.db")
		if err := copyFile(src, dst); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		db, err := Open(dst, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		var n int
		_ = db.read.QueryRow(`SELECT count(*) FROM recall_docs`).Scan(&n)
		b.ReportMetric(float64(n), "docs")
		db.Close()
		b.StartTimer()
	}
}

// fillSchema5 writes n sessions into a new schema-5 datalog at path, in
// one transaction of plain inserts.
func fillSchema5(path string, n int) error {
	ctx := context.Background()
	raw, err := sql.Open("sqlite", dsn(path, time.Second, false))
	if err != nil {
		return err
	}
	defer raw.Close()
	migs, err := loadMigrations()
	if err != nil {
		return err
	}
	if err := migrate(ctx, raw, migs[:5]); err != nil {
		return err
	}
	tx, err := raw.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	g, err := newSchema5Gen(tx)
	if err != nil {
		return err
	}
	for i := range n {
		if err := g.session(i); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// schema5Gen holds the generator's statements and randomness.
type schema5Gen struct {
	sess, rnd, msg, call, plan *sql.Stmt
	r                          *rand.Rand
	z                          *rand.Zipf
}

func newSchema5Gen(tx *sql.Tx) (*schema5Gen, error) {
	g := &schema5Gen{r: rand.New(rand.NewPCG(3, 4))}
	g.z = rand.NewZipf(g.r, 1.1, 2, uint64(len(benchVocab)-1))
	var err error
	prep := func(q string) *sql.Stmt {
		s, e := tx.Prepare(q)
		if err == nil {
			err = e
		}
		return s
	}
	g.sess = prep(`INSERT INTO sessions (id, project_root, first_prompt, started_at, ended_at, stop_reason) VALUES (?, ?, ?, ?, ?, 'completed')`)
	g.rnd = prep(`INSERT INTO rounds (session_id, seq, task_seq, started_at) VALUES (?, ?, ?, ?)`)
	g.msg = prep(`INSERT INTO messages (session_id, seq, round_seq, epoch, json) VALUES (?, ?, ?, 0, ?)`)
	g.call = prep(`INSERT INTO tool_calls (session_id, round_seq, idx, call_id, name, arguments, result) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	g.plan = prep(`INSERT INTO plan_snapshots (session_id, round_seq, json, at) VALUES (?, ?, ?, ?)`)
	return g, err
}

func (g *schema5Gen) text(n int) string { return benchText(g.r, g.z, nil, n) }

// session writes session i: two tasks of three rounds (two with tool
// calls, then the answer).
func (g *schema5Gen) session(i int) error {
	at := t0.Add(time.Duration(i) * time.Minute).UnixNano()
	id := fmt.Sprintf("%08x%08x", uint32(at/1e9), i)
	prompt := g.text(20)
	if _, err := g.sess.Exec(id, fmt.Sprintf("/home/u/src/project%02d", i%benchProjects), prompt, at, at); err != nil {
		return err
	}
	seq := 0
	msg := func(round int, m llm.Message) error {
		seq++
		b, _ := json.Marshal(m)
		_, err := g.msg.Exec(id, seq, round, string(b))
		return err
	}
	for task := 1; task <= 2; task++ {
		for r := 1; r <= 3; r++ {
			round := (task-1)*3 + r
			if _, err := g.rnd.Exec(id, round, task, at+int64(round)); err != nil {
				return err
			}
			if err := g.round(id, task, r, round, prompt, msg); err != nil {
				return err
			}
		}
		prompt = g.text(20)
	}
	plan, _ := json.Marshal(map[string]string{"goal": g.text(10)})
	_, err := g.plan.Exec(id, 1, string(plan), at)
	return err
}

// round writes one round's messages and calls.
func (g *schema5Gen) round(id string, task, r, round int, prompt string, msg func(int, llm.Message) error) error {
	if r == 1 {
		if err := msg(round, llm.Message{Role: llm.RoleUser, Content: prompt}); err != nil {
			return err
		}
	}
	if r == 3 {
		return msg(round, llm.Message{Role: llm.RoleAssistant, Content: g.text(100)})
	}
	calls := []llm.ToolCall{{ID: "a", Name: "read_file", Arguments: `{"path":"` + g.text(1) + `.go"}`},
		{ID: "b", Name: "run_command", Arguments: `{"command":"go test ./` + g.text(1) + `"}`}}
	if err := msg(round, llm.Message{Role: llm.RoleAssistant, ToolCalls: calls}); err != nil {
		return err
	}
	for i, c := range calls {
		out := g.text(150)
		if _, err := g.call.Exec(id, round, i, c.ID, c.Name, c.Arguments, out); err != nil {
			return err
		}
		if err := msg(round, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: out}); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
