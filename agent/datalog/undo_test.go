package datalog

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/tools"
)

// undoLikeKeel undoes changes as keel undo does (tools.Undo, fed from
// TaskFileChanges) and returns why each file it left was left, by name
// relative to dir. It fails the test if undo would write a redaction
// mark.
func undoLikeKeel(t *testing.T, dir string, changes []FileChange) map[string]string {
	t.Helper()
	rec := make([]tools.RecordedChange, len(changes))
	for i, c := range changes {
		if c.Withheld == "" && bytes.Contains(c.Before, []byte("[REDACTED:")) && i == 0 {
			t.Errorf("undo would be handed a redaction mark to write into %s: %q", c.Path, c.Before)
		}
		rec[i] = tools.RecordedChange{ID: c.ID, Pending: c.Pending, Withheld: c.Withheld, PathWithheld: c.PathWithheld,
			FileChange: tools.FileChange{Path: c.Path, Existed: c.Existed, Before: c.Before, After: c.After, Mode: c.Mode,
				BeforeSHA256: c.BeforeSHA256, AfterSHA256: c.AfterSHA256, ByCommand: c.ByCommand}}
		if len(c.Splices) > 0 {
			if err := json.Unmarshal(c.Splices, &rec[i].Splices); err != nil {
				t.Fatal(err)
			}
		}
	}
	left := map[string]string{}
	for _, o := range tools.Undo(rec) {
		if !o.Done {
			rel, _ := filepath.Rel(dir, o.Path)
			left[rel] = o.Left
		}
	}
	return left
}

// fileSteps is one file a task writes: its content before the task
// (absent when nil) and the contents the model writes, in order.
type fileSteps struct {
	name    string
	initial []byte
	writes  []string
}

// runTask writes each file's steps to disk, recording a change for each
// write as the agent does, one round per write, all in task 1.
func runTask(t *testing.T, db *DB, sid, dir string, files []fileSteps) {
	t.Helper()
	seq := 0
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if f.initial != nil {
			if err := os.WriteFile(p, f.initial, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, w := range f.writes {
			before, err := os.ReadFile(p)
			existed := err == nil
			if err := os.WriteFile(p, []byte(w), 0o644); err != nil {
				t.Fatal(err)
			}
			seq++
			rec := round(sid, seq, 1)
			rec.FileChanges = []FileChange{{Path: p, Existed: existed, Before: before, After: []byte(w), Mode: 0o644}}
			mustWrite(t, db, rec)
		}
	}
}

// TestUndoWithRedactedContents stores each task's file changes with the
// secrets redacted, then undoes the task as keel undo does: each file is
// put back byte for byte, or left as it is with the reason; undo never
// writes a redaction mark, and the database never holds the secret.
func TestUndoWithRedactedContents(t *testing.T) {
	binary := []byte("a\r\nb\x00\xff\xfe\n")
	tests := []struct {
		name     string
		files    []fileSteps
		userEdit string            // a file the user changes after the task
		left     map[string]string // files undo leaves, with a substring of why
	}{
		{name: "no secret, byte-exact", files: []fileSteps{{"a.bin", binary, []string{"x\x00y", "z\r\n"}}}},
		{name: "created file, no secret", files: []fileSteps{{"new/b.go", nil, []string{"package b\n"}}}},
		{name: "secret added by the model", files: []fileSteps{{"c.env", []byte("K=\n"), []string{"K=" + secEnvKey + "\n"}}}},
		{name: "secret added, then edited again", files: []fileSteps{{"c.env", []byte("K=\n"),
			[]string{"K=" + secEnvKey + "\n", "K=" + secEnvKey + "\nX=1\n"}}}},
		{name: "secret added, then taken out", files: []fileSteps{{"c.env", []byte("K=\n"),
			[]string{"K=" + secPassword + "\n", "K=\nY=2\n"}}}},
		{name: "file created with a secret", files: []fileSteps{{"d.env", nil, []string{secExplicit}}}},
		{name: "secret added, and a clean file", files: []fileSteps{{"e.go", binary, []string{"e"}},
			{"f.env", []byte(""), []string{secToken}}}},
		{name: "secret added, then the user edited the file", files: []fileSteps{{"c.env", []byte("K=\n"),
			[]string{"K=" + secEnvKey}}}, userEdit: "c.env", left: map[string]string{"c.env": "changed since"}},
		{name: "secret already in the file", files: []fileSteps{{"g.env", []byte("P=" + secPassword + "\n"),
			[]string{"P=" + secPassword + "\nQ=1\n"}}}, left: map[string]string{"g.env": "held a secret (DB_PASSWORD)"}},
		{name: "secret already in one file of two", files: []fileSteps{{"h.go", binary, []string{"h"}},
			{"i.env", []byte(secEnvKey), []string{"i"}}}, left: map[string]string{"i.env": "restore it from git"}},
		{name: "path holds a secret", files: []fileSteps{{secToken + "/j.txt", nil, []string{"j"}}},
			left: map[string]string{"[REDACTED:GITHUB_TOKEN]/j.txt": "cannot find it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "keel.db")
			db, err := Open(path, secOptions())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			sid := startTest(t, db, Session{})
			runTask(t, db, sid, dir, tt.files)
			if tt.userEdit != "" {
				if err := os.WriteFile(filepath.Join(dir, tt.userEdit), []byte("mine"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			onDisk := snapshot(t, dir, tt.files)
			changes, err := db.TaskFileChanges(context.Background(), sid)
			if err != nil {
				t.Fatal(err)
			}
			left := undoLikeKeel(t, dir, changes)
			if len(left) != len(tt.left) {
				t.Fatalf("left %v, want %v", left, tt.left)
			}
			for f, why := range tt.left {
				if !strings.Contains(left[f], why) {
					t.Errorf("%s left because %q, want %q", f, left[f], why)
				}
			}
			want := initialState(tt.files)
			for _, f := range tt.files {
				if _, ok := tt.left[strings.ReplaceAll(f.name, secToken, "[REDACTED:GITHUB_TOKEN]")]; ok { // as stored
					want[f.name] = onDisk[f.name]
				}
			}
			if got := snapshot(t, dir, tt.files); !equalState(got, want) {
				t.Errorf("files after undo = %q, want %q", got, want)
			}
			db.Close()
			grepFiles(t, path, append(append(append(leaks(secEnvKey), leaks(secToken)...), leaks(secPassword)...), leaks(secExplicit)...))
		})
	}
}

// snapshot reads each file of the steps (nil when absent).
func snapshot(t *testing.T, dir string, files []fileSteps) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		out[f.name] = b
	}
	return out
}

func initialState(files []fileSteps) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range files {
		out[f.name] = f.initial
	}
	return out
}

func equalState(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || (v == nil) != (w == nil) || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

// TestFileChangeStoredByteForByte: a content without a secret is stored
// as written, with the hashes of the real contents and no flag.
func TestFileChangeStoredByteForByte(t *testing.T) {
	db := openTest(t, secOptions())
	sid := startTest(t, db, Session{})
	before, after := []byte("a\r\nb\x00\xff\xfe\n"), []byte{}
	rec := round(sid, 1, 1)
	rec.FileChanges = []FileChange{{Path: "/w/a.bin", Existed: true, Before: before, After: after, Mode: 0o600}}
	mustWrite(t, db, rec)
	var got FileChange
	err := db.read.QueryRow(`SELECT path, before, after, before_sha256, after_sha256, path_redacted,
		before_redacted, after_redacted FROM file_changes`).Scan(&got.Path, &got.Before, &got.After,
		&got.BeforeSHA256, &got.AfterSHA256, &got.PathRedacted, &got.BeforeRedacted, &got.AfterRedacted)
	if err != nil {
		t.Fatal(err)
	}
	want := FileChange{Path: "/w/a.bin", Before: before, After: []byte{},
		BeforeSHA256: sha256Hex(before), AfterSHA256: sha256Hex(after)}
	// An empty content may read back as nil: undo compares and writes
	// both as no bytes.
	if got.Path != want.Path || !bytes.Equal(got.Before, want.Before) || len(got.After) != 0 ||
		got.BeforeSHA256 != want.BeforeSHA256 || got.AfterSHA256 != want.AfterSHA256 ||
		got.PathRedacted || got.BeforeRedacted || got.AfterRedacted {
		t.Errorf("stored %+v, want %+v", got, want)
	}
}

// TestUndoRowsWithoutHashes: rows written before schema version 3 have no
// hashes and no flags; TaskFileChanges returns them as stored.
func TestUndoRowsWithoutHashes(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{})
	mustWrite(t, db, round(sid, 1, 1))
	_, err := db.w.db.Exec(`INSERT INTO file_changes (session_id, round_seq, task_seq, path, existed, before, after, mode)
		VALUES (?, 1, 1, '/old', 1, ?, ?, 420)`, sid, []byte("was"), []byte("is"))
	if err != nil {
		t.Fatal(err)
	}
	fcs, err := db.TaskFileChanges(context.Background(), sid)
	if err != nil || len(fcs) != 1 || string(fcs[0].Before) != "was" || string(fcs[0].After) != "is" || fcs[0].AfterSHA256 != "" {
		t.Errorf("TaskFileChanges = %+v, %v; want the old row as stored", fcs, err)
	}
}
