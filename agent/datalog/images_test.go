package datalog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
)

func testImage(data []byte) llm.Image {
	sum := sha256.Sum256(data)
	return llm.Image{MIME: "image/png", SHA256: hex.EncodeToString(sum[:]), Width: 3, Height: 2, Data: data}
}

func count(t *testing.T, db *DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.read.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestImagesAreStoredOnceByReference: an image in two rounds' messages is
// one row; the messages hold its hash, not its bytes; the history comes
// back with the bytes; Prune drops it with the last session that used it.
func TestImagesAreStoredOnceByReference(t *testing.T) {
	db := openTest(t, Options{})
	ctx := context.Background()
	data := bytes.Repeat([]byte("pixels"), 100)
	img := testImage(data)
	forged := llm.Image{MIME: "image/png", SHA256: img.SHA256, Data: []byte("not those bytes")}
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	r1 := round(sid, 1, 1, tc("c1", "shot", map[string]any{}, false))
	r1.Messages[1].Images = []llm.Image{img}
	r2 := round(sid, 2, 1, tc("c2", "shot", map[string]any{}, false))
	r2.Messages[1].Images = []llm.Image{img, forged}
	mustWrite(t, db, r1)
	mustWrite(t, db, r2)
	if n := count(t, db, `SELECT COUNT(*) FROM images`); n != 1 {
		t.Errorf("%d image rows, want 1", n)
	}
	enc := base64.StdEncoding.EncodeToString(data)
	if n := count(t, db, `SELECT COUNT(*) FROM messages WHERE instr(json, ?) > 0 OR instr(json, ?) > 0`, enc[:40], string(data[:40])); n != 0 {
		t.Errorf("%d messages hold the image's bytes", n)
	}
	if n := count(t, db, `SELECT COUNT(*) FROM messages WHERE instr(json, ?) > 0`, img.SHA256); n != 2 {
		t.Errorf("%d messages refer to the image by its hash, want 2", n)
	}
	hist, err := db.LoadHistory(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	if got := hist[1].Images; len(got) != 1 || !bytes.Equal(got[0].Data, data) || got[0].Width != 3 {
		t.Errorf("resumed image = %+v", got)
	}
	if got := hist[3].Images; len(got) != 2 || !bytes.Equal(got[1].Data, data) {
		t.Errorf("the forged image gets the stored bytes of its hash, not its own: %+v", got)
	}
	if _, err := db.Prune(ctx, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, `SELECT COUNT(*) FROM images`); n != 0 {
		t.Errorf("%d images left after pruning the only session", n)
	}
}

func TestToolProgressIsRecordedWithTheCall(t *testing.T) {
	db := openTest(t, Options{})
	sid := startTest(t, db, Session{ProjectRoot: "/p"})
	c := tc("c1", "mcp__s__slow", map[string]any{}, false)
	c.Progress = `[{"progress":1,"total":2,"message":"half"}]`
	mustWrite(t, db, round(sid, 1, 1, c, tc("c2", "echo", map[string]any{}, false)))
	d, err := db.LoadSession(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	calls := d.Rounds[0].ToolCalls
	if calls[0].Progress != c.Progress || calls[1].Progress != "" {
		t.Errorf("progress = %q, %q", calls[0].Progress, calls[1].Progress)
	}
}
