package datalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

// TestWritesSurviveOutages breaks the database under a running session and
// expects one WriteError, no lost round, and a retry that saves them all.
func TestWritesSurviveOutages(t *testing.T) {
	tests := []struct {
		name string
		// breakDB makes the next write fail and returns a repair func.
		breakDB func(t *testing.T, db *DB) (repair func())
		// stillBroken: the fault outlives one retry (an outside lock).
		stillBroken bool
	}{
		{"disk full", func(t *testing.T, db *DB) func() {
			var pages int
			db.w.db.QueryRow(`PRAGMA page_count`).Scan(&pages)
			if _, err := db.w.db.Exec(`PRAGMA max_page_count = ` + itoa(pages)); err != nil {
				t.Fatal(err)
			}
			return func() {} // the writer reopens its connection after a failure
		}, false},
		{"read-only", func(t *testing.T, db *DB) func() {
			if _, err := db.w.db.Exec(`PRAGMA query_only = 1`); err != nil {
				t.Fatal(err)
			}
			return func() {}
		}, false},
		{"locked", func(t *testing.T, db *DB) func() { return lockDB(t, db.path) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := openTest(t, Options{BusyTimeout: 20 * time.Millisecond})
			sid := startTest(t, db, Session{})
			mustWrite(t, db, round(sid, 1, 1))
			repair := tt.breakDB(t, db)
			big := round(sid, 2, 1, tc("c", "run_command", "x", false))
			big.ToolCalls[0].Result = strings.Repeat("x", 200<<10)
			var we *WriteError
			if err := db.WriteRound(ctx, big); !errors.As(err, &we) || we.Pending != 1 {
				t.Fatalf("first failing write: %v; want a WriteError with 1 pending", err)
			}
			if !strings.Contains(we.Error(), "retrying") {
				t.Errorf("message %q does not say the write is retried", we)
			}
			if tt.stillBroken {
				if err := db.WriteRound(ctx, round(sid, 3, 1)); err != nil || db.Pending() != 2 {
					t.Fatalf("second failing write = %v with %d pending; want nil (reported once) and 2 pending", err, db.Pending())
				}
			}
			repair()
			if err := db.WriteRound(ctx, round(sid, 4, 1)); err != nil {
				t.Fatalf("write after repair: %v", err)
			}
			d, err := db.LoadSession(ctx, sid)
			if err != nil {
				t.Fatal(err)
			}
			want := 3
			if tt.stillBroken {
				want = 4
			}
			if len(d.Rounds) != want || db.Pending() != 0 {
				t.Errorf("rounds saved = %d (%d pending), want %d", len(d.Rounds), db.Pending(), want)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestPermanentErrorIsNotRetried(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	mustWrite(t, db, round(sid, 1, 1))
	err := db.WriteRound(context.Background(), round(sid, 1, 1)) // same seq twice: a caller bug
	var we *WriteError
	if err == nil || errors.As(err, &we) || db.Pending() != 0 {
		t.Fatalf("duplicate round: err=%v pending=%d; want a plain error and nothing kept", err, db.Pending())
	}
	mustWrite(t, db, round(sid, 2, 1))
}

func TestWriteAfterCloseAndReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keel.db")
	db, _ := Open(path, Options{})
	db.Close()
	if _, err := db.StartSession(context.Background(), Session{}); !errors.Is(err, ErrClosed) {
		t.Errorf("write after close = %v, want ErrClosed", err)
	}
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.StartSession(context.Background(), Session{}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("write on read-only = %v, want ErrReadOnly", err)
	}
}

// TestSecretsNeverReachTheFile puts fake keys everywhere text is stored
// and greps the database, WAL and shared-memory files.
func TestSecretsNeverReachTheFile(t *testing.T) {
	const envKey = "sk-fake-0123456789abcdef"
	const token = "ghp_faketoken42"
	const explicit = "explicit-api-key-xyz"
	const quoted = `pa"ss\word-123`
	environ := []string{"OPENAI_API_KEY=" + envKey, "GITHUB_TOKEN=" + token, "DB_PASSWORD=" + quoted,
		"SHORT_KEY=abc", "PATH=/usr/bin"}
	dir := t.TempDir()
	path := filepath.Join(dir, "keel.db")
	db, err := Open(path, Options{Environ: environ, Secrets: map[string]string{"api_key": explicit}, CaptureBodies: true})
	if err != nil {
		t.Fatal(err)
	}
	all := envKey + " " + token + " " + explicit + " " + quoted
	args, _ := json.Marshal(map[string]string{"command": "echo " + all})
	sid := startTest(t, db, Session{Config: json.RawMessage(`{"k":"` + envKey + `"}`), FirstPrompt: "use " + token})
	rec := round(sid, 1, 1, ToolCall{CallID: "c", Name: "run_command", Arguments: string(args), Result: "env: " + all})
	rec.Messages = append(rec.Messages, llm.Message{Role: llm.RoleUser, Content: all, Reasoning: all})
	rec.Interventions = []Intervention{{Kind: "stall", Message: all, Figures: json.RawMessage(`{"x":"` + token + `"}`)}}
	rec.Transitions = []StateTransition{{Detail: all}}
	rec.Request, rec.Response = []byte(all), []byte(all)
	mustWrite(t, db, rec)
	db.UpdateInterventionReply(context.Background(), sid, 1, 0, all)
	check := func(when string) {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			b, err := os.ReadFile(path + suffix)
			if err != nil {
				continue
			}
			for _, s := range []string{envKey, token, explicit, "ss\\\\word", "word-123\""} {
				if bytes.Contains(b, []byte(s)) {
					t.Errorf("%s: %s contains secret %q", when, filepath.Base(path+suffix), s)
				}
			}
		}
	}
	check("open")
	d, _ := db.LoadSession(context.Background(), sid)
	if got := d.Rounds[0].ToolCalls[0].Result; !strings.Contains(got, "[REDACTED:OPENAI_API_KEY]") ||
		!strings.Contains(got, "[REDACTED:api_key]") || !strings.Contains(got, "[REDACTED:DB_PASSWORD]") {
		t.Errorf("result = %q, want redaction markers", got)
	}
	if !strings.Contains(d.Rounds[0].ToolCalls[0].Arguments, "[REDACTED:DB_PASSWORD]") {
		t.Errorf("JSON-escaped secret in arguments not redacted: %s", d.Rounds[0].ToolCalls[0].Arguments)
	}
	db.Close()
	check("closed")
}

// lockDB holds an exclusive lock on the database at path from another
// connection until the returned func releases it.
func lockDB(t *testing.T, path string) (release func()) {
	t.Helper()
	conn, err := rawDB(t, path).Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	return func() {
		conn.ExecContext(context.Background(), `ROLLBACK`)
		conn.Close()
	}
}

// Records a lock kept out reach the database once it is released, with
// no further write to carry them, and Close waits for them.
func TestPendingRecordsArriveOnTheirOwn(t *testing.T) {
	for _, how := range []string{"in the background", "at close"} {
		t.Run(how, func(t *testing.T) {
			ctx := context.Background()
			db := openTest(t, Options{BusyTimeout: 20 * time.Millisecond})
			sid := startTest(t, db, Session{})
			release := lockDB(t, db.path)
			var we *WriteError
			if err := db.WriteRound(ctx, round(sid, 1, 1)); !errors.As(err, &we) {
				t.Fatalf("write under a lock = %v, want a WriteError", err)
			}
			if how == "at close" {
				time.AfterFunc(300*time.Millisecond, release)
				if err := db.Close(); err != nil {
					t.Fatalf("Close = %v, want the round saved once the lock went", err)
				}
				db = reopen(t, db.path)
			} else {
				release()
				for deadline := time.Now().Add(time.Minute); db.Pending() > 0 && time.Now().Before(deadline); {
					time.Sleep(20 * time.Millisecond)
				}
			}
			d, err := db.LoadSession(ctx, sid)
			if err != nil || len(d.Rounds) != 1 {
				t.Fatalf("rounds saved = %v (%v), want 1", d, err)
			}
		})
	}
}

func reopen(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
