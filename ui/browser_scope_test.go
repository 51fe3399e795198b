package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/ui/dialog"
)

// scopeModel is keel in /p/keel-web whose running session is logged,
// beside a past session of the same project and one of another.
func scopeModel(t *testing.T, w, h int, resumed *string) *Model {
	t.Helper()
	db, err := datalog.Open(filepath.Join(t.TempDir(), "keel.db"), datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	live := "69a446600000aaaa"
	for _, s := range []datalog.Session{
		{ID: live, ProjectRoot: "/p/keel-web", Provider: "openai", Model: "gpt-test", Started: at.Add(2 * time.Hour), FirstPrompt: "the task running now"},
		{ID: "69a42a400000bbbb", ProjectRoot: "/p/keel-web", Provider: "openai", Model: "gpt-4.1", Started: at, FirstPrompt: "fix the web build"},
		{ID: "69a438500000cccc", ProjectRoot: "/p/acme-billing-other-app", Provider: "openai", Model: "gpt-4.1", Started: at.Add(time.Hour), FirstPrompt: "speed up the importer"},
		{ID: "69a41c300000dddd", ProjectRoot: "/q/keel-web", Provider: "openai", Model: "gpt-4.1", Started: at.Add(-time.Hour), FirstPrompt: "another checkout"},
	} {
		if _, err := db.StartSession(ctx, s); err != nil {
			t.Fatal(err)
		}
		if err := db.SetFirstPrompt(ctx, s.ID, s.FirstPrompt); err != nil {
			t.Fatal(err)
		}
	}
	s := agent.New(agent.Options{ProviderName: "openai", Model: "gpt-test", SessionID: live})
	t.Cleanup(s.Close)
	dark := true
	return New(Options{Session: s, Bridge: dialog.NewBridge(), DB: db, Status: StatusInfo{Workspace: "/p/keel-web"},
		ProviderLabel: "openai", Model: "gpt-test", ContextWindow: 128000, Dark: &dark, Width: w, Height: h,
		Resume: func(id string) tea.Cmd { *resumed = id; return nil }})
}

// lineOf is the line of screen that holds text.
func lineOf(screen, text string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}

// run runs a command as Bubble Tea would and feeds its message back.
func run(m *Model, cmd tea.Cmd) {
	if cmd != nil {
		if msg := cmd(); msg != nil {
			m.Update(msg)
		}
	}
}

// The browser lists this project's sessions, the running one marked live;
// tab lists every project's with their names (a long one keeps its end,
// two of the same name show their parent); resuming another project's
// session asks first, its keys shown whole at 80 columns (issue 32).
func TestBrowserByProject(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			var resumed string
			m := scopeModel(t, sz[0], sz[1], &resumed)
			run(m, m.openBrowser())
			got := plain(m)
			if !strings.Contains(got, "Sessions of keel-web") || strings.Contains(got, "speed up the importer") ||
				!strings.Contains(got, "live") || strings.Contains(lineOf(got, "the task running now"), "interrupted") {
				t.Fatalf("the list should hold this project's sessions, the running one live:\n%s", got)
			}
			golden(t, m, fmt.Sprintf("browser_project_%dx%d", sz[0], sz[1]))
			_, cmd := m.Update(press("tab"))
			run(m, cmd)
			if got := plain(m); !strings.Contains(got, "Sessions of every project") || !strings.Contains(got, "other-app") ||
				!strings.Contains(got, "fix the web") || !strings.Contains(got, "p/keel-web") || !strings.Contains(got, "q/keel-web") {
				t.Fatalf("tab should list every project's sessions with their project and prompt:\n%s", got)
			}
			golden(t, m, fmt.Sprintf("browser_all_%dx%d", sz[0], sz[1]))
			send(m, press("ctrl+r")) // the newest first: the live one
			if got := plain(m); !strings.Contains(got, "that is the session running now") || resumed != "" {
				t.Fatalf("resuming the running session should say it is open:\n%s", got)
			}
			send(m, press("down"), press("ctrl+r")) // other-app's
			if got := plain(m); !strings.Contains(got, "Resume here?") || !strings.Contains(got, "/p/acme-billing-other-app") ||
				!strings.Contains(got, "enter resumes it") || !strings.Contains(got, "goes back") || resumed != "" {
				t.Fatalf("resuming another project's session should ask first:\n%s", got)
			}
			send(m, press("n"))
			if resumed != "" || m.browser == nil {
				t.Fatal("n should go back to the list")
			}
			send(m, press("ctrl+r"), press("enter"))
			if resumed == "" {
				t.Fatalf("enter should resume it:\n%s", plain(m))
			}
		})
	}
}
