package ui

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

// historyModel is a model keeping its history in path.
func historyModel(t *testing.T, path string) *Model {
	t.Helper()
	m := newTestModel(t, 80, 24)
	m.opts.HistoryFile = path
	return m
}

// sendLine types a line, presses enter, and runs the command it returns
// when it is the history's append (slash commands return only that).
func sendLine(t *testing.T, m *Model, line string) {
	t.Helper()
	typeText(m, line)
	_, cmd := m.Update(press("enter"))
	if cmd == nil {
		t.Fatalf("%q saved nothing", line)
	}
	msg, ok := cmd().(historySavedMsg)
	if !ok || msg.err != nil {
		t.Fatalf("%q: want a saved history entry, got %#v", line, msg)
	}
}

// TestHistoryAcrossLaunches: prompts sent in one TUI are recalled by ↑ in
// the next one, newest first, in the same workspace only.
func TestHistoryAcrossLaunches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "keel", "history", "w.jsonl")
	first := historyModel(t, path)
	sendLine(t, first, "/clear")
	sendLine(t, first, "/plan")
	typeText(first, "/plan")
	if _, cmd := first.Update(press("enter")); cmd != nil {
		t.Fatal("a repeat of the last prompt is not saved again")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the history file should exist, private: %v %v", fi, err)
	}

	second := historyModel(t, path)
	send(second, loadHistoryCmd(path)())
	for _, want := range []string{"/plan", "/clear", "/clear"} { // the oldest stays on ↑
		send(second, press("up"))
		if got := second.input.value(); got != want {
			t.Fatalf("↑ recalls %q, want %q", got, want)
		}
	}
	send(second, press("down"), press("down"))
	if got := second.input.value(); got != "" {
		t.Fatalf("↓ past the newest gives back the empty draft, got %q", got)
	}

	other := historyModel(t, filepath.Join(filepath.Dir(path), "other.jsonl"))
	send(other, loadHistoryCmd(other.opts.HistoryFile)(), press("up"))
	if got := other.input.value(); got != "" {
		t.Fatalf("another workspace has no history, ↑ gave %q", got)
	}
}

// TestHistoryLoadedAfterTyping: prompts sent before the file is read stay
// the newest; ↑ on a line that is not the first moves the cursor only.
func TestHistoryLoadedAfterTyping(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.jsonl")
	if err := appendHistory(path, historyEntry{Text: "older"}); err != nil {
		t.Fatal(err)
	}
	m := historyModel(t, path)
	msg := loadHistoryCmd(path)()
	sendLine(t, m, "/clear")
	send(m, msg, press("up"))
	if got := m.input.value(); got != "/clear" {
		t.Fatalf("the newest is this launch's, got %q", got)
	}
	send(m, press("up"))
	if got := m.input.value(); got != "older" {
		t.Fatalf("then the file's, got %q", got)
	}

	m2 := historyModel(t, path)
	send(m2, msg)
	typeText(m2, "one")
	send(m2, press("alt+enter"))
	typeText(m2, "two")
	send(m2, press("up"))
	if got := m2.input.value(); got != "one\ntwo" {
		t.Fatalf("↑ on the second line must not recall, got %q", got)
	}
}

// TestHistoryKeepsPastes: a recalled collapsed paste still sends its
// text, in this launch and the next.
func TestHistoryKeepsPastes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.jsonl")
	long := strings.Repeat("x\n", 11) + "x"
	m := historyModel(t, path)
	send(m, tea.PasteMsg{Content: long})
	_, shown := m.input.take()
	e := m.input.takeUnsaved()
	if e == nil || shown != "[pasted 12 lines]" {
		t.Fatalf("want the placeholder kept to save, got %q %v", shown, e)
	}
	if err := appendHistory(path, *e); err != nil {
		t.Fatal(err)
	}
	for _, mm := range []*Model{m, historyModel(t, path)} {
		if mm != m {
			send(mm, loadHistoryCmd(path)())
		}
		send(mm, press("up"))
		if prompt, _ := mm.input.take(); prompt != long {
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
	msg := loadHistoryCmd(path)().(historyMsg)
	if msg.err != nil || len(msg.entries) != maxHistory || msg.entries[maxHistory-1].Text != fmt.Sprintf("p%d", n-1) {
		t.Fatalf("want the newest %d, got %d (err %v)", maxHistory, len(msg.entries), msg.err)
	}
	again := loadHistoryCmd(path)().(historyMsg)
	if len(again.entries) != maxHistory || again.entries[0].Text != msg.entries[0].Text {
		t.Fatalf("the trimmed file should hold the same %d", maxHistory)
	}
	data, _ := os.ReadFile(path)
	if lines := strings.Count(string(data), "\n"); lines != maxHistory {
		t.Fatalf("file has %d lines after the trim, want %d", lines, maxHistory)
	}
}

// TestHistoryFileErrorsAreSaidOnce: an unwritable history says so once
// and the history still works for the run.
func TestHistoryFileErrorsAreSaidOnce(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	m := historyModel(t, filepath.Join(blocker, "h.jsonl")) // a file where the directory should be
	for _, line := range []string{"/clear", "/plan"} {
		typeText(m, line)
		_, cmd := m.Update(press("enter"))
		send(m, cmd())
	}
	if n := strings.Count(plain(m), "save the prompt history"); n != 1 {
		t.Fatalf("the failure should be said once, said %d times:\n%s", n, plain(m))
	}
	send(m, press("up"))
	if m.input.value() != "/plan" {
		t.Fatal("the history works for this run")
	}
}
