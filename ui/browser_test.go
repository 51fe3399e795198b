package ui

import (
	"context"
	"errors"
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
	if m.browser.level != levelRounds || !strings.Contains(plain(m), "Session "+datalog.ShortID(id)) {
		t.Fatalf("want the session's timeline:\n%s", plain(m))
	}
	send(m, press("r"))
	if m.ResumeRequested() != id || m.browser != nil {
		t.Fatalf("r should request resuming %s, got %q", id, m.ResumeRequested())
	}
}

func TestBrowserKeys(t *testing.T) {
	m := newTestModel(t, 100, 30)
	scenarioRounds(t, m)
	send(m, press("down"), press("enter"))
	if m.browser.level != levelRound || !strings.Contains(plain(m), "Round 2 of session") {
		t.Fatalf("enter should open round 2:\n%s", plain(m))
	}
	if !strings.Contains(plain(m), "intervention verify at call 2") {
		t.Fatalf("the round in full shows its interventions:\n%s", plain(m))
	}
	send(m, press("esc"))
	if m.browser.level != levelRounds {
		t.Fatal("esc goes back to the timeline")
	}
	send(m, press("esc"))
	if m.browser.level != levelSessions {
		t.Fatal("esc goes back to the sessions")
	}
	typeText(m, "qwen")
	if got := m.browser.filtered(); len(got) != 1 || got[0].Model != "qwen2.5-coder" {
		t.Fatalf("filter qwen: %v", got)
	}
	if !strings.Contains(plain(m), "filter: qwen") || strings.Contains(plain(m), "gpt-4.1") {
		t.Fatalf("filtered list:\n%s", plain(m))
	}
	send(m, press("backspace"))
	if m.browser.filter != "qwe" {
		t.Fatal("backspace edits the filter")
	}
	send(m, press("esc"))
	if m.browser.filter != "" || m.browser == nil {
		t.Fatal("esc clears the filter first")
	}
	send(m, press("ctrl+r"))
	if m.ResumeRequested() != sampleSessions()[0].ID {
		t.Fatal("ctrl+r resumes from the list")
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

func TestBrowserShowsLoadErrors(t *testing.T) {
	m := newTestModel(t, 100, 30)
	m.browser = newBrowser(m.keys.Browser)
	send(m, sessionsMsg{err: errors.New("database is locked")})
	if !strings.Contains(plain(m), "could not read the datalog: database is locked") {
		t.Fatalf("error not shown:\n%s", plain(m))
	}
}

func TestBrowserLongTimelineKeepsCursorVisible(t *testing.T) {
	m := newTestModel(t, 100, 30)
	scenarioRounds(t, m)
	d := m.browser.detail
	for len(d.Rounds) < 1000 {
		r := *d.Rounds[len(d.Rounds)%3]
		r.Round.Seq = len(d.Rounds) + 1
		d.Rounds = append(d.Rounds, &r)
	}
	send(m, press("end"))
	if !strings.Contains(plain(m), "▶ round 1000 ") {
		t.Fatalf("end should show the last round:\n%s", plain(m))
	}
	send(m, press("home"))
	if !strings.Contains(plain(m), "▶ round 1 ") {
		t.Fatal("home should show the first round")
	}
}
