package editor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestHistoryFile(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name string
		env  func(string) string
		dir  string // the file's directory; "" for no file
	}{
		{"XDG_STATE_HOME", env("XDG_STATE_HOME", "/s", "HOME", "/h"), "/s/keel/history"},
		{"HOME only", env("HOME", "/h"), "/h/.local/state/keel/history"},
		{"a relative XDG_STATE_HOME is ignored", env("XDG_STATE_HOME", "rel", "HOME", "/h"), "/h/.local/state/keel/history"},
		{"neither", env(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HistoryFile(tt.env, "/work/p")
			if tt.dir == "" {
				if got != "" {
					t.Fatalf("got %q, want no file", got)
				}
				return
			}
			if filepath.Dir(got) != tt.dir || !strings.HasSuffix(got, ".jsonl") {
				t.Fatalf("got %q, want a .jsonl in %s", got, tt.dir)
			}
		})
	}
	e := env("HOME", "/h")
	if HistoryFile(e, "/work/p") == HistoryFile(e, "/work/q") || HistoryFile(e, "/work/p") != HistoryFile(e, "/work/p/") {
		t.Fatal("one file per workspace, the same for the same directory")
	}
}

// TestHistoryKeepsPastes: a recalled collapsed paste still sends its
// text, in this launch and the next.
func TestHistoryKeepsPastes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.jsonl")
	long := strings.Repeat("x\n", 11) + "x"
	m := newTestEditor(nil)
	m.Update(tea.PasteMsg{Content: long})
	_, shown := m.Take()
	e := m.TakeUnsaved()
	if e == nil || shown != "[pasted 12 lines]" {
		t.Fatalf("want the placeholder kept to save, got %q %v", shown, e)
	}
	if err := appendHistory(path, *e); err != nil {
		t.Fatal(err)
	}
	next := newTestEditor(nil)
	for _, mm := range []*Model{m, next} {
		if mm == next {
			if err := mm.HistoryLoaded(LoadHistoryCmd(path)().(HistoryMsg)); err != nil {
				t.Fatal(err)
			}
		}
		mm.Update(tea.KeyPressMsg{Code: tea.KeyUp})
		if prompt, _ := mm.Take(); prompt != long {
			t.Fatalf("a recalled paste sends %q, want its text", prompt)
		}
	}
}

// TestHistoryIsCapped: the file is trimmed to the newest maxHistory
// entries when it has grown by half again; bad lines are skipped.
func TestHistoryIsCapped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.jsonl")
	var b strings.Builder
	b.WriteString("not json\n")
	n := maxHistory*3/2 + 10
	for i := range n {
		fmt.Fprintf(&b, "{\"text\":\"p%d\"}\n", i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	msg := LoadHistoryCmd(path)().(HistoryMsg)
	if msg.err != nil || len(msg.entries) != maxHistory || msg.entries[maxHistory-1].Text != fmt.Sprintf("p%d", n-1) {
		t.Fatalf("want the newest %d, got %d (err %v)", maxHistory, len(msg.entries), msg.err)
	}
	again := LoadHistoryCmd(path)().(HistoryMsg)
	if len(again.entries) != maxHistory || again.entries[0].Text != msg.entries[0].Text {
		t.Fatalf("the trimmed file should hold the same %d", maxHistory)
	}
	data, _ := os.ReadFile(path)
	if lines := strings.Count(string(data), "\n"); lines != maxHistory {
		t.Fatalf("file has %d lines after the trim, want %d", lines, maxHistory)
	}
}
