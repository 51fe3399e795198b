package datalog

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// sourceText is about n bytes of real Go source: this package's files,
// repeated as needed.
func sourceText(t testing.TB, n int) []byte {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	var b bytes.Buffer
	for b.Len() < n {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
		}
	}
	return b.Bytes()[:n]
}

// datalogBytes is the size on disk of the datalog at path: the database,
// its WAL and shared memory.
func datalogBytes(path string) int64 {
	var n int64
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if fi, err := os.Stat(path + suffix); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// editSession records rounds rounds, each journaling and committing a
// one-line edit of a 100 KB source file, as keel's edit_file does, and
// returns the datalog's growth per round with the database still open
// (the WAL counts).
func editSession(t testing.TB, rounds int) (perRound, content float64) {
	path := filepath.Join(t.TempDir(), "keel.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	sid, err := db.StartSession(ctx, Session{ProjectRoot: "/p", Started: t0})
	if err != nil {
		t.Fatal(err)
	}
	start := datalogBytes(path)
	cur := sourceText(t, 100<<10)
	var stored int
	for i := 1; i <= rounds; i++ {
		at := (i * 7919) % (len(cur) - 64)
		after := append(append(append([]byte{}, cur[:at]...), fmt.Appendf(nil, "// edit %d\n", i)...), cur[at:]...)
		fc := FileChange{Path: "/p/big.go", Existed: true, Before: cur, Mode: 0o644}
		id, err := db.JournalChange(ctx, JournalEntry{SessionID: sid, Round: i, TaskSeq: 1, CallID: "c", Change: fc})
		if err != nil {
			t.Fatal(err)
		}
		rec := round(sid, i, 1, tc("c", "edit_file", map[string]any{"path": "big.go"}, false))
		fc.JournalID, fc.ToolCallID, fc.After = id, "c", after
		rec.FileChanges = []FileChange{fc}
		if err := db.WriteRound(ctx, rec); err != nil {
			t.Fatal(err)
		}
		stored += len(cur) + len(after)
		cur = after
	}
	return float64(datalogBytes(path)-start) / float64(rounds), float64(stored) / float64(rounds)
}

// BenchmarkDatalogBytesPerRound: what a round that edits a 100 KB file
// adds to the datalog on disk, WAL included (make bench budget).
func BenchmarkDatalogBytesPerRound(b *testing.B) {
	var per, content float64
	for range b.N {
		per, content = editSession(b, 200)
	}
	b.ReportMetric(per, "datalog-B/round")
	b.ReportMetric(content, "content-B/round")
}

// TestDatalogStaysSmallerThanItsContent: 100 one-line edits of a 100 KB
// file (20 MB of contents before and after) take under a fifth of that
// on disk, WAL included (stored raw they took over 1.3 times as much).
func TestDatalogStaysSmallerThanItsContent(t *testing.T) {
	per, content := editSession(t, 100)
	if per > content/5 {
		t.Errorf("the datalog grows %.0f bytes a round for %.0f bytes of contents, want under a fifth", per, content)
	}
	t.Logf("%.0f bytes a round for %.0f bytes of contents", per, content)
}
