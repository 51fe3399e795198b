package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

func TestParseStatusRSS(t *testing.T) {
	cases := []struct {
		name, status string
		rss, hwm     float64
		err          string
	}{
		{"both", "Name:\tkeel\nVmHWM:\t   45132 kB\nVmRSS:\t   44000 kB\nThreads:\t9\n", 44000 * 1024, 45132 * 1024, ""},
		{"no hwm", "VmRSS:\t 10 kB\n", 0, 0, "no VmRSS or VmHWM"},
		{"other unit", "VmRSS:\t 10 MB\nVmHWM:\t 10 kB\n", 0, 0, "not in kB"},
		{"not a number", "VmRSS:\t ten kB\nVmHWM:\t 10 kB\n", 0, 0, "VmRSS"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rss, hwm, err := parseStatusRSS(c.status)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one mentioning %q", err, c.err)
				}
				return
			}
			if err != nil || rss != c.rss || hwm != c.hwm {
				t.Errorf("= %v, %v, %v; want %v, %v", rss, hwm, err, c.rss, c.hwm)
			}
		})
	}
}

func TestProcRSSOfThisProcess(t *testing.T) {
	rss, hwm, err := ProcRSS(os.Getpid())
	if err != nil || rss <= 0 || hwm < rss {
		t.Errorf("ProcRSS(self) = %v, %v, %v; want 0 < rss <= hwm", rss, hwm, err)
	}
}

// The session's fake model counts a task's reads itself (compaction
// replaces the history), answers after sessionRoundsPerTask of them, and
// answers compaction's request (no tools) with a summary.
func TestSessionScript(t *testing.T) {
	s := &sessionScript{}
	h := s.script().Handler
	task := func(i int) llmtest.RecordedRequest {
		return llmtest.RecordedRequest{Tools: []string{"read_file"}, Messages: []llmtest.RecordedMessage{{Role: "user", Content: sessionPrompt(i)}}}
	}
	cont := llmtest.RecordedRequest{Tools: []string{"read_file"}, Messages: []llmtest.RecordedMessage{{Role: "tool", Content: "x"}}}
	if r := h(task(1), 0); len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "read_file" {
		t.Fatalf("first round = %+v, want one read_file call", r)
	}
	for i := 1; i < sessionRoundsPerTask; i++ {
		if r := h(cont, i); len(r.ToolCalls) != 1 {
			t.Fatalf("round %d = %+v, want a call", i+1, r)
		}
	}
	if r := h(cont, 0); len(r.ToolCalls) != 0 || !strings.Contains(r.Text, sessionDone(1)) {
		t.Errorf("after %d reads = %+v, want the done answer", sessionRoundsPerTask, r)
	}
	if r := h(llmtest.RecordedRequest{}, 0); len(r.ToolCalls) != 0 || !strings.HasPrefix(r.Text, "Summary") {
		t.Errorf("compaction's request = %+v, want a summary", r)
	}
	if r := h(task(2), 0); len(r.ToolCalls) != 1 || s.rounds() != sessionRoundsPerTask+1 {
		t.Errorf("task 2 = %+v, rounds %d; want a call and %d rounds", r, s.rounds(), sessionRoundsPerTask+1)
	}
}

// The first-paint session's model serves paintRounds reads whatever the
// requests carry, then answers; compaction's request gets a summary.
func TestPaintScript(t *testing.T) {
	h := paintScript().Handler
	req := llmtest.RecordedRequest{Tools: []string{"read_file"}}
	for i := range paintRounds {
		if r := h(req, i); len(r.ToolCalls) != 1 {
			t.Fatalf("round %d = %+v, want a read", i+1, r)
		}
	}
	if r := h(llmtest.RecordedRequest{}, 0); len(r.ToolCalls) != 0 || !strings.HasPrefix(r.Text, "Summary") {
		t.Errorf("compaction's request = %+v, want a summary", r)
	}
	if r := h(req, 0); len(r.ToolCalls) != 0 || r.Text != finalAnswer {
		t.Errorf("after %d reads = %+v, want the final answer", paintRounds, r)
	}
}

func TestCopyDir(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "new")
	for name, body := range map[string]string{"keel.db": "db", "keel.db-wal": "wal"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(src, "last-task"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := copyDir(src, dst); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dst, "keel.db-wal"))
	if string(got) != "wal" || datalogSize(filepath.Join(dst, "keel.db")) != 5 {
		t.Errorf("copied wal %q, size %d; want the files copied", got, datalogSize(filepath.Join(dst, "keel.db")))
	}
	if _, err := os.Stat(filepath.Join(dst, "last-task")); err == nil {
		t.Error("a directory was copied")
	}
}
