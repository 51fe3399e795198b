package datalog

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The secrets of these tests: three from the environment, one passed
// explicitly. The password has the characters JSON escapes.
const (
	secEnvKey   = "sk-test-0123456789abcdef"
	secToken    = "ghp_0123456789token"
	secPassword = `pa"ss\wo/rd<&>-123` + "\t"
	secExplicit = "explicit-key-xyz-42"
)

var secEnviron = []string{"OPENAI_API_KEY=" + secEnvKey, "GITHUB_TOKEN=" + secToken,
	"DB_PASSWORD=" + secPassword, "SHORT_KEY=abc", "PATH=/usr/bin"}

func secOptions() Options {
	return Options{Environ: secEnviron, Secrets: map[string]string{"API_KEY_1": secExplicit}, CaptureBodies: true}
}

// carrying is a text holding secret raw, JSON-escaped (with and without
// HTML escaping, with "\/") and escaped twice, as tool arguments inside a
// request body are. Fields stored as JSON escape it once more.
func carrying(secret string) string {
	once := jsonEscape(secret, true)
	return "raw " + secret + " json " + once + " plain-json " + jsonEscape(secret, false) +
		" twice " + jsonEscape(once, true) + " slash " + strings.ReplaceAll(once, "/", `\/`) + " end"
}

// leaks are the forms of secret no stored byte may contain.
func leaks(secret string) []string {
	return secretForms(secret)
}

// fill sets every settable string and []byte of v, through structs and
// slices (a nil slice gets one element), to text; a json.RawMessage gets
// text as a JSON string. Ids keel makes are left alone. Filling by
// reflection means a field added to a record is covered by
// TestNoSecretInAnyColumn without anyone remembering it.
func fill(v reflect.Value, text string) {
	rawMsg := reflect.TypeOf(json.RawMessage(nil))
	switch v.Kind() {
	case reflect.String:
		v.SetString(text)
	case reflect.Slice:
		if v.Type() == rawMsg {
			b, _ := json.Marshal(text)
			v.SetBytes(b)
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte(text))
			return
		}
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			fill(v.Index(i), text)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Name == "ID" || f.Name == "SessionID" {
				continue
			}
			fill(v.Field(i), text)
		}
	}
}

// writeEverything stores text in every field of every record and through
// every write method.
func writeEverything(t *testing.T, db *DB, text string) {
	t.Helper()
	ctx := context.Background()
	var s Session
	fill(reflect.ValueOf(&s).Elem(), text)
	sid := startTest(t, db, s)
	later := startTest(t, db, Session{}) // first prompt set afterwards
	if err := db.SetFirstPrompt(ctx, later, text); err != nil {
		t.Fatal(err)
	}
	var rec RoundRecord
	fill(reflect.ValueOf(&rec).Elem(), text)
	rec.Round.SessionID, rec.Round.Seq, rec.Round.TaskSeq = sid, 1, 1
	mustWrite(t, db, rec)
	var queued RoundRecord // through QueueRound, as the agent stores rounds
	fill(reflect.ValueOf(&queued).Elem(), text)
	queued.Round.SessionID, queued.Round.Seq, queued.Round.TaskSeq = sid, 3, 1
	if err := db.QueueRound(ctx, queued)(); err != nil {
		t.Fatal(err)
	}
	if err := db.UpdateInterventionReply(ctx, sid, 1, 0, text); err != nil {
		t.Fatal(err)
	}
	var in Intent
	fill(reflect.ValueOf(&in).Elem(), text)
	in.SessionID, in.Round = sid, 2 // a round never committed: the intent stays
	if err := db.WriteIntent(ctx, in); err != nil {
		t.Fatal(err)
	}
	var refl Reflection
	fill(reflect.ValueOf(&refl).Elem(), text)
	refl.SessionID = sid
	var note NoteEvent
	fill(reflect.ValueOf(&note).Elem(), text)
	note.SessionID = sid
	var lesson Lesson
	fill(reflect.ValueOf(&lesson).Elem(), text)
	lesson.SessionID = sid
	var hook HookRun
	fill(reflect.ValueOf(&hook).Elem(), text)
	hook.SessionID = sid
	child := Session{ParentID: sid, ParentCallID: text, Agent: text}
	startTest(t, db, child)
	if err := errors.Join(db.WriteReflection(ctx, refl), db.WriteNoteEvent(ctx, note), db.WriteLesson(ctx, lesson), db.QueueHookRun(ctx, hook)()); err != nil {
		t.Fatal(err)
	}
	var end RoundRecord
	fill(reflect.ValueOf(&end).Elem(), text)
	if err := db.EndTask(ctx, sid, 1, end.Transitions, end.Plans, text, Totals{}); err != nil {
		t.Fatal(err)
	}
	var job Job
	fill(reflect.ValueOf(&job).Elem(), text)
	job.SessionID, job.ID, job.Started = sid, "1", t0
	if err := db.WriteJob(ctx, job); err != nil {
		t.Fatal(err)
	}
	var journaled JournalEntry // a change about to be made (the file journal)
	fill(reflect.ValueOf(&journaled).Elem(), text)
	journaled.SessionID, journaled.Round, journaled.TaskSeq = sid, 4, 1
	if _, err := db.JournalChange(ctx, journaled); err != nil {
		t.Fatal(err)
	}
	if err := db.EndSession(ctx, sid, text, Totals{}); err != nil {
		t.Fatal(err)
	}
}

// keelColumns hold only what keel makes (ids, hashes, recall's kinds,
// scopes and FTS5 index, which are derived from redacted text and so
// never spell the mark whole) or pictures (images, stored only when their
// bytes match their hash and type, which filled text never does): they
// need no redaction mark. Every other text or blob column must show one.
var keelColumns = map[string]bool{
	"images.sha256": true, "images.mime": true, "images.data": true, "session_images.sha256": true,
	"sessions.id": true, "jobs.job_id": true, "file_changes.before_sha256": true, "file_changes.after_sha256": true,
	"file_changes.state": true, "file_changes.before_enc": true, "file_changes.after_enc": true,
	"recall_docs.kind": true, "recall_docs.scope": true, "recall_fts_data.block": true, "recall_fts_docsize.sz": true,
}

type column struct{ table, name string }

// textColumns lists every TEXT or BLOB column of every table.
func textColumns(t *testing.T, db *sql.DB) []column {
	t.Helper()
	rows, err := db.Query(`SELECT m.name, p.name, p.type FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' ORDER BY m.name, p.cid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []column
	for rows.Next() {
		var c column
		var typ string
		if err := rows.Scan(&c.table, &c.name, &typ); err != nil {
			t.Fatal(err)
		}
		if typ == "TEXT" || typ == "BLOB" {
			out = append(out, c)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// storedValues is columnValues with file_changes' contents decoded: they
// may be compressed, which would hide a mark and a leak alike.
func storedValues(t *testing.T, db *DB, c column) [][]byte {
	t.Helper()
	if c.table != "file_changes" || (c.name != "before" && c.name != "after") {
		return columnValues(t, db.read, c)
	}
	changes, err := db.fileChangesWhere(context.Background(), "1")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, fc := range changes {
		out = append(out, fc.Before, fc.After)
	}
	return out
}

// columnValues returns every value of a column as bytes.
func columnValues(t *testing.T, db *sql.DB, c column) [][]byte {
	t.Helper()
	rows, err := db.Query(`SELECT CAST("` + c.name + `" AS BLOB) FROM "` + c.table + `"`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestNoSecretInAnyColumn writes each secret into every field of every
// record, then dumps every text and blob column of every table: no
// column may hold any form of the secret, and every column but keel's
// own ids and hashes must show a redaction mark (so a new column the
// writer forgets to redact, or this test forgets to fill, fails here).
func TestNoSecretInAnyColumn(t *testing.T) {
	tests := []struct{ name, secret, mark string }{
		{"environment key", secEnvKey, "[REDACTED:OPENAI_API_KEY]"},
		{"environment token", secToken, "[REDACTED:GITHUB_TOKEN]"},
		{"environment password with JSON escapes", secPassword, "[REDACTED:DB_PASSWORD]"},
		{"explicit API key", secExplicit, "[REDACTED:API_KEY_1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "keel.db")
			db, err := Open(path, secOptions())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			writeEverything(t, db, carrying(tt.secret))
			cols := textColumns(t, db.read)
			if len(cols) < 40 {
				t.Fatalf("found %d text columns; the schema query is broken", len(cols))
			}
			for _, c := range cols {
				t.Run(c.table+"."+c.name, func(t *testing.T) {
					marked := false
					for _, v := range storedValues(t, db, c) {
						for _, leak := range leaks(tt.secret) {
							if bytes.Contains(v, []byte(leak)) {
								t.Errorf("stores the secret as %q: %q", leak, v)
								break
							}
						}
						marked = marked || bytes.Contains(v, []byte(tt.mark))
					}
					if !marked && !keelColumns[c.table+"."+c.name] && !strings.HasSuffix(c.name, "session_id") {
						t.Errorf("no row shows %s: the writer does not store this column's text, or fill misses its field", tt.mark)
					}
				})
			}
			grepFiles(t, path, leaks(tt.secret))
			checkStoredJSON(t, db)
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			grepFiles(t, path, leaks(tt.secret))
		})
	}
}

// checkStoredJSON reads the redacted records back: marks must keep the
// stored JSON valid.
func checkStoredJSON(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	list, err := db.ListSessions(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		if len(s.Config) > 0 && !json.Valid(s.Config) {
			t.Errorf("config of %s is not JSON after redaction: %s", s.ID, s.Config)
		}
		d, err := db.LoadSession(ctx, s.ID)
		if err != nil {
			t.Fatalf("load session after redaction: %v", err)
		}
		for _, rd := range d.Rounds {
			for _, iv := range rd.Interventions {
				if !json.Valid(iv.Figures) {
					t.Errorf("figures are not JSON after redaction: %s", iv.Figures)
				}
			}
		}
		if _, err := db.LoadHistory(ctx, s.ID); err != nil {
			t.Errorf("history after redaction: %v", err)
		}
	}
}

// grepFiles fails when the database, its WAL or shared memory hold any
// of the strings.
func grepFiles(t *testing.T, path string, secrets []string) {
	t.Helper()
	for _, name := range []string{path, path + "-wal", path + "-shm"} {
		b, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds the secret as %q", filepath.Base(name), s)
			}
		}
	}
}

// TestBodiesNotCapturedAreNotStored: without CaptureBodies the raw bodies
// never reach the database, redacted or not.
func TestBodiesNotCapturedAreNotStored(t *testing.T) {
	opts := secOptions()
	opts.CaptureBodies = false
	db := openTest(t, opts)
	writeEverything(t, db, carrying(secEnvKey))
	var n int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM bodies`).Scan(&n); err != nil || n != 0 {
		t.Errorf("bodies rows = %d, %v; want none", n, err)
	}
}

// TestProjectFilterMatchesRedactedRoot: a project root holding a secret
// is stored redacted and still found by its real path.
func TestProjectFilterMatchesRedactedRoot(t *testing.T) {
	db := openTest(t, secOptions())
	root := "/home/u/" + secToken + "/proj"
	sid := startTest(t, db, Session{ProjectRoot: root})
	if err := db.SetFirstPrompt(context.Background(), sid, "a prompt"); err != nil { // LatestSession skips empty sessions
		t.Fatal(err)
	}
	s, err := db.LatestSession(context.Background(), root)
	if err != nil || s.ID != sid || strings.Contains(s.ProjectRoot, secToken) {
		t.Errorf("LatestSession(root with a secret) = %+v, %v; want %s stored redacted", s, err, sid)
	}
}

func TestSecretForms(t *testing.T) {
	tests := []struct {
		secret string
		want   []string
	}{
		{"plain-secret", []string{"plain-secret"}},
		{`a"b\c`, []string{`a"b\c`, `a\"b\\c`, `a\\\"b\\\\c`}},
		{"x<y/z", []string{"x<y/z", `x\u003cy/z`, `x\u003cy\/z`, `x<y\/z`}},
		{`q"`, []string{`q\\\\\\\"`}}, // escaped three times: a JSON file in write_file's arguments in a request body
	}
	for _, tt := range tests {
		t.Run(tt.secret, func(t *testing.T) {
			got := secretForms(tt.secret)
			for _, w := range tt.want {
				if !contains(got, w) {
					t.Errorf("secretForms(%q) = %q, missing %q", tt.secret, got, w)
				}
			}
			if tt.secret == "plain-secret" && len(got) != 1 {
				t.Errorf("secretForms(%q) = %q; want the value once", tt.secret, got)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestMarkKeepsJSONValid: a secret's name is part of the mark, and the
// mark lands inside JSON text; an odd name must not break it.
func TestMarkKeepsJSONValid(t *testing.T) {
	tests := []struct{ name, wantMark string }{
		{"ODD\"NAME\\_KEY", "[REDACTED:ODD_NAME__KEY]"},
		{"plain_KEY", "[REDACTED:plain_KEY]"},
		{"ü_TOKEN", "[REDACTED:__TOKEN]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRedactor([]string{tt.name + "=s3cr3t-value"}, nil)
			in, _ := json.Marshal(map[string]string{"v": "x s3cr3t-value y"})
			out := r.String(string(in))
			if !json.Valid([]byte(out)) || !strings.Contains(out, tt.wantMark) {
				t.Errorf("redacted JSON = %s; want valid JSON with %s", out, tt.wantMark)
			}
		})
	}
}

// TestContentWithoutSecretIsUntouched: a file content without a secret is
// stored as the very bytes undo needs.
func TestContentWithoutSecretIsUntouched(t *testing.T) {
	r := newRedactor(secEnviron, nil)
	in := []byte("a\r\nb\x00\xff\xfe not a secret\n")
	out, red := r.Content(in)
	if red || !bytes.Equal(out, in) || &out[0] != &in[0] {
		t.Errorf("Content = %q, %v; want the input slice, not redacted", out, red)
	}
	out, red = r.Content([]byte("k=" + secEnvKey))
	if !red || string(out) != "k=[REDACTED:OPENAI_API_KEY]" {
		t.Errorf("Content(secret) = %q, %v", out, red)
	}
}
