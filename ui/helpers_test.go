package ui

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui/dialog"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestMain(m *testing.M) {
	time.Local = time.UTC // the browser shows local times; goldens must not depend on TZ
	os.Exit(m.Run())
}

// newTestModel makes a model with a session that is never submitted to
// (commands returned by Update are not run), at width × height.
func newTestModel(t testing.TB, w, h int) *Model { return newTestModelWith(t, w, h, Options{}) }

// newTestModelWith is newTestModel with opts for what it does not set
// (a Workspace, a Shell, hooks).
func newTestModelWith(t testing.TB, w, h int, opts Options) *Model {
	t.Helper()
	dark := true
	s := agent.New(agent.Options{ProviderName: "openai", Model: "gpt-test"})
	t.Cleanup(s.Close)
	opts.Session, opts.Bridge, opts.ProviderLabel, opts.Model = s, dialog.NewBridge(), "openai", "gpt-test"
	opts.ContextWindow, opts.Cadence, opts.Dark, opts.Width, opts.Height = 128000, 10, &dark, w, h
	return New(opts)
}

// send feeds msgs to the model, ignoring the commands it returns.
func send(m *Model, msgs ...tea.Msg) {
	for _, msg := range msgs {
		m.Update(msg)
	}
}

// events wraps agent events as the drain command would deliver them.
func events(evs ...agent.Event) eventsMsg { return eventsMsg{events: evs} }

// press makes a key press from its string form: "enter", "ctrl+c", "a".
func press(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "alt+enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}
	case "alt+up":
		return tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModAlt}
	case "alt+down":
		return tea.KeyPressMsg{Code: tea.KeyDown, Mod: tea.ModAlt}
	}
	if c, ok := strings.CutPrefix(k, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(c[0]), Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// typeText presses one key per rune.
func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(press(string(r)))
	}
}

// plain is the screen without any escape sequences, for assertions.
func plain(m *Model) string {
	return ansi.Strip(m.View().Content)
}

// statusLine is the screen's last line: the status bar, or the hint a key
// left in its place.
func statusLine(m *Model) string {
	lines := strings.Split(plain(m), "\n")
	return lines[len(lines)-1]
}

// golden compares the view, downsampled to the ASCII profile (attributes,
// no colours), with testdata/name.golden; -update rewrites it.
func golden(t *testing.T, m *Model, name string) {
	t.Helper()
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: colorprofile.ASCII}
	if _, err := w.WriteString(m.View().Content); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("view differs from %s (go test ./ui -update rewrites it)\n--- got (plain):\n%s\n--- want (plain):\n%s",
			path, ansi.Strip(string(got)), ansi.Strip(string(want)))
	}
}

func intp(i int) *int { return &i }

// resumedSession is the agent session keel -c makes for session sid: its
// history loaded from db.
func resumedSession(t *testing.T, db *datalog.DB, sid string) *agent.Session {
	t.Helper()
	hist, err := db.LoadHistory(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	s := agent.New(agent.Options{ProviderName: "openai", Model: "gpt-test", History: hist, SessionID: sid})
	t.Cleanup(s.Close)
	return s
}

// testDatalog opens a real datalog in a temporary directory, closed when
// the test ends, and starts a session of project root in it.
func testDatalog(t *testing.T, root string) (*datalog.DB, string) {
	t.Helper()
	db, err := datalog.Open(filepath.Join(t.TempDir(), "keel.db"), datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sid, err := db.StartSession(context.Background(), datalog.Session{ProjectRoot: root, Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return db, sid
}

// newLLMModel is a test model whose session talks to a fake LLM that
// answers every prompt "ok", so what the UI submits is what the server
// receives (sentPrompt).
func newLLMModel(t *testing.T, w, h int, opts Options) (*Model, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Start(t, llmtest.Script{Handler: func(llmtest.RecordedRequest, int) llmtest.Round { return llmtest.Round{Text: "ok"} }})
	client := llm.New(llm.Config{Name: "fake", BaseURL: srv.URL(), APIKey: "k", APIKeyEnv: "FAKE_KEY", Model: "gpt-test", IdleTimeout: 5 * time.Second})
	bridge := opts.Bridge
	if bridge == nil {
		bridge = dialog.NewBridge()
	}
	s := agent.New(agent.Options{Provider: &agent.RetryingProvider{Clients: []*llm.Client{client}},
		ProviderName: "openai", Model: "gpt-test", Gate: bridge, Asker: bridge, SystemPrompt: "test"})
	t.Cleanup(s.Close)
	dark := true
	opts.Session, opts.Bridge, opts.Dark, opts.Width, opts.Height = s, bridge, &dark, w, h
	opts.ProviderLabel, opts.Model, opts.ContextWindow, opts.Cadence = "openai", "gpt-test", 128000, 10
	return New(opts), srv
}

// sentPrompt runs the commands an Update returned, as Bubble Tea would,
// and returns the prompt of the request they made the session send: the
// last user message of the server's next request.
func sentPrompt(t *testing.T, srv *llmtest.Server, cmd tea.Cmd) string {
	t.Helper()
	before := len(srv.Requests())
	runAsync(cmd)
	deadline := time.Now().Add(time.Minute)
	for len(srv.Requests()) == before {
		if time.Now().After(deadline) {
			t.Fatal("the prompt never reached the model")
		}
		time.Sleep(time.Millisecond)
	}
	msgs := srv.Requests()[before].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i].Content
		}
	}
	t.Fatal("the request has no user message")
	return ""
}
