package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/ui/dialog"
)

// welcomeModel is the welcome screen: no session, an optional datalog.
func welcomeModel(t *testing.T, db *datalog.DB) *Model {
	t.Helper()
	dark := true
	return New(Options{Bridge: dialog.NewBridge(), DB: db, Dark: &dark, Width: 100, Height: 30,
		ConfigPath: "/home/u/xdg/keel/config.toml"})
}

// loggedDB is a datalog holding one session with a first prompt.
func loggedDB(t *testing.T) (*datalog.DB, string) {
	t.Helper()
	db, err := datalog.Open(filepath.Join(t.TempDir(), "keel.db"), datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	ctx := context.Background()
	id, err := db.StartSession(ctx, datalog.Session{Provider: "openai", Model: "gpt-4.1", ProjectRoot: "/p"})
	if err == nil {
		err = db.SetFirstPrompt(ctx, id, "Fix the flaky test")
	}
	if err != nil {
		t.Fatal(err)
	}
	return db, id
}

// TestWelcomeKeys: the keys the welcome screen advertises work there, and
// no other key types into the input it does not draw.
func TestWelcomeKeys(t *testing.T) {
	tests := []struct {
		name   string
		keys   []string
		db     bool
		screen string // what the screen must show after the keys
		help   bool   // the help is open
	}{
		{name: "? opens the help", keys: []string{"?"}, screen: "send (queued while keel works)", help: true},
		{name: "? after a stray key", keys: []string{"h", "i", "?"}, screen: "send (queued while keel works)", help: true},
		{name: "a key closes the help", keys: []string{"?", "x"}, screen: "Welcome to keel"},
		{name: "ctrl+l without a datalog says so", keys: []string{"ctrl+l"}, screen: "no past sessions to browse"},
		{name: "other keys name the screen's keys", keys: []string{"x"}, screen: "keys: d runs the demo"},
		{name: "ctrl+l browses the sessions", keys: []string{"ctrl+l"}, db: true, screen: "Fix the flaky test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var db *datalog.DB
			if tt.db {
				db, _ = loggedDB(t)
			}
			m := welcomeModel(t, db)
			for _, k := range tt.keys {
				if _, cmd := m.Update(press(k)); cmd != nil && tt.db {
					send(m, cmd()) // the browser's list, read in a command
				}
			}
			if s := plain(m); !strings.Contains(s, tt.screen) {
				t.Fatalf("screen lacks %q:\n%s", tt.screen, s)
			}
			if m.help.Open() != tt.help {
				t.Fatalf("help open = %v, want %v", m.help.Open(), tt.help)
			}
			if v := m.input.Value(); v != "" {
				t.Fatalf("the hidden input took %q", v)
			}
			if m.DemoRequested() {
				t.Fatal("only d asks for the demo")
			}
		})
	}
}

// TestWelcomeBrowserDoesNotResume: resuming needs a provider; from the
// welcome screen r says so instead of quitting into the same screen.
func TestWelcomeBrowserDoesNotResume(t *testing.T) {
	db, _ := loggedDB(t)
	m := welcomeModel(t, db)
	_, cmd := m.Update(press("ctrl+l"))
	send(m, cmd())
	if _, cmd = m.Update(press("ctrl+r")); cmd != nil {
		t.Fatal("resume from the welcome screen must not quit")
	}
	if m.ResumeRequested() != "" || !strings.Contains(plain(m), "configure a provider") {
		t.Fatalf("want a hint and no resume request (%q):\n%s", m.ResumeRequested(), plain(m))
	}
}

// TestWelcomeNamesTheConfigFile: keel config init's file is named as it
// is, not as ~/.config when XDG_CONFIG_HOME moved it.
func TestWelcomeNamesTheConfigFile(t *testing.T) {
	m := welcomeModel(t, nil)
	s := plain(m)
	if !strings.Contains(s, "/home/u/xdg/keel/config.toml") || strings.Contains(s, "~/.config") {
		t.Fatalf("welcome screen should name the real config path:\n%s", s)
	}
}
