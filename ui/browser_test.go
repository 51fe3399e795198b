package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
)

func TestBrowserReadsTheDatalogInCommands(t *testing.T) {
	db, err := datalog.Open(filepath.Join(t.TempDir(), "keel.db"), datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	id, err := db.StartSession(ctx, datalog.Session{Provider: "openai", Model: "gpt-4.1", ProjectRoot: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetFirstPrompt(ctx, id, "Fix the flaky test"); err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, 100, 30)
	m.opts.DB = db
	_, cmd := m.Update(press("ctrl+l"))
	if m.browser == nil || cmd == nil {
		t.Fatal("ctrl+l should open the browser and load in a command")
	}
	send(m, cmd())
	if !strings.Contains(plain(m), "Fix the flaky test") {
		t.Fatalf("session not listed:\n%s", plain(m))
	}
	_, cmd = m.Update(press("enter"))
	if cmd == nil {
		t.Fatal("enter should load the session in a command")
	}
	send(m, cmd())
	if !strings.Contains(plain(m), "Session "+datalog.ShortID(id)) {
		t.Fatalf("want the session's timeline:\n%s", plain(m))
	}
	send(m, press("r"))
	if m.ResumeRequested() != id || m.browser != nil {
		t.Fatalf("r should request resuming %s, got %q", id, m.ResumeRequested())
	}
}

func TestBrowserEscCloses(t *testing.T) {
	m := newTestModel(t, 100, 30)
	scenarioBrowser(t, m)
	send(m, press("esc"))
	if m.browser != nil {
		t.Fatal("esc on the list closes the browser")
	}
}

// TestBrowserTakesTheKeys: while the browser is open, letters filter its
// list rather than type into the input, and ctrl+r resumes through the
// root model.
func TestBrowserTakesTheKeys(t *testing.T) {
	m := newTestModel(t, 100, 30)
	scenarioBrowser(t, m)
	typeText(m, "qwen")
	if s := plain(m); !strings.Contains(s, "filter: qwen") || m.input.Value() != "" {
		t.Fatalf("letters should filter the list, input %q:\n%s", m.input.Value(), s)
	}
	send(m, press("ctrl+r"))
	if m.ResumeRequested() != sampleSessions()[1].ID || m.browser != nil {
		t.Fatalf("ctrl+r should resume the filtered session, got %q", m.ResumeRequested())
	}
}
