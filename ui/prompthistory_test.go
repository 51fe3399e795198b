package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/ui/editor"
)

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
	msg, ok := cmd().(editor.HistorySavedMsg)
	if !ok || msg.Err != nil {
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
	send(second, editor.LoadHistoryCmd(path)())
	for _, want := range []string{"/plan", "/clear", "/clear"} { // the oldest stays on ↑
		send(second, press("up"))
		if got := second.input.Value(); got != want {
			t.Fatalf("↑ recalls %q, want %q", got, want)
		}
	}
	send(second, press("down"), press("down"))
	if got := second.input.Value(); got != "" {
		t.Fatalf("↓ past the newest gives back the empty draft, got %q", got)
	}

	other := historyModel(t, filepath.Join(filepath.Dir(path), "other.jsonl"))
	send(other, editor.LoadHistoryCmd(other.opts.HistoryFile)(), press("up"))
	if got := other.input.Value(); got != "" {
		t.Fatalf("another workspace has no history, ↑ gave %q", got)
	}
}

// TestHistoryLoadedAfterTyping: prompts sent before the file is read stay
// the newest; ↑ on a line that is not the first moves the cursor only.
func TestHistoryLoadedAfterTyping(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.jsonl")
	if saved := editor.AppendHistoryCmd(path, editor.HistoryEntry{Text: "older"})().(editor.HistorySavedMsg); saved.Err != nil {
		t.Fatal(saved.Err)
	}
	m := historyModel(t, path)
	msg := editor.LoadHistoryCmd(path)()
	sendLine(t, m, "/clear")
	send(m, msg, press("up"))
	if got := m.input.Value(); got != "/clear" {
		t.Fatalf("the newest is this launch's, got %q", got)
	}
	send(m, press("up"))
	if got := m.input.Value(); got != "older" {
		t.Fatalf("then the file's, got %q", got)
	}

	m2 := historyModel(t, path)
	send(m2, msg)
	typeText(m2, "one")
	send(m2, press("alt+enter"))
	typeText(m2, "two")
	send(m2, press("up"))
	if got := m2.input.Value(); got != "one\ntwo" {
		t.Fatalf("↑ on the second line must not recall, got %q", got)
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
	if m.input.Value() != "/plan" {
		t.Fatal("the history works for this run")
	}
}
