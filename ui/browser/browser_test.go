package browser

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/ui/keys"
	"github.com/keel-dev/keel/ui/theme"
)

func TestMain(m *testing.M) {
	time.Local = time.UTC // the browser shows local times
	os.Exit(m.Run())
}

var at = time.Date(2025, 11, 20, 9, 30, 0, 0, time.UTC)

func sessions() []datalog.Session {
	return []datalog.Session{
		{ID: "0193a1b2c3d4e5f6", Provider: "openai", Model: "gpt-4.1", FirstPrompt: "Fix the retry off-by-one", Started: at, StopReason: "completed", Totals: datalog.Totals{Rounds: 12}},
		{ID: "0193a0ffeeddccbb", Provider: "ollama", Model: "qwen2.5-coder", FirstPrompt: "Add a --json flag to keel log", Started: at.Add(-26 * time.Hour), StopReason: "loop_detected", Totals: datalog.Totals{Rounds: 40}},
	}
}

// withRounds is a browser showing the first session's three rounds.
func withRounds() *Model {
	b := New(keys.Default().Browser)
	b.Loaded(SessionsMsg{Sessions: sessions()})
	b.Loaded(DetailMsg{Detail: &datalog.SessionDetail{Session: sessions()[0], Rounds: []*datalog.RoundDetail{
		{Round: datalog.Round{Seq: 1, TaskSeq: 1, Duration: 2100 * time.Millisecond, TokensIn: 5200, TokensOut: 310, FinishReason: "tool_calls", Started: at},
			ToolCalls: []datalog.ToolCall{{Name: "read_file", Arguments: `{"path":"agent/llm/retry.go"}`, Duration: 2 * time.Millisecond}}},
		{Round: datalog.Round{Seq: 2, TaskSeq: 1, Duration: 3 * time.Second, TokensIn: 6100, TokensOut: 420, FinishReason: "tool_calls", Started: at},
			ToolCalls:     []datalog.ToolCall{{Name: "edit_file", Arguments: `{"path":"agent/llm/retry.go"}`, Duration: 9 * time.Millisecond}},
			Interventions: []datalog.Intervention{{Kind: "verify", AtToolCall: 2}},
			Plans:         []datalog.PlanSnapshot{{Attempt: 0, Status: "active"}}},
		{Round: datalog.Round{Seq: 3, TaskSeq: 1, Duration: 1200 * time.Millisecond, TokensIn: 6500, TokensOut: 90, FinishReason: "stop", Started: at}},
	}}})
	return b
}

// press presses k ("down", "enter", "esc", "end", "home", "backspace",
// "ctrl+r" or one character) at 30 rows.
func press(b *Model, k string) Action {
	codes := map[string]rune{"down": tea.KeyDown, "enter": tea.KeyEnter, "esc": tea.KeyEscape, "end": tea.KeyEnd,
		"home": tea.KeyHome, "backspace": tea.KeyBackspace}
	msg := tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
	switch {
	case codes[k] != 0:
		msg = tea.KeyPressMsg{Code: codes[k]}
	case k == "ctrl+r":
		msg = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	}
	return b.Key(msg, 27)
}

func screen(b *Model) string { return ansi.Strip(b.View(theme.New(true, false), 100, 30)) }

func TestKeys(t *testing.T) {
	b := withRounds()
	press(b, "down")
	press(b, "enter")
	if s := screen(b); b.level != levelRound || !strings.Contains(s, "Round 2 of session") {
		t.Fatalf("enter should open round 2:\n%s", s)
	}
	if s := screen(b); !strings.Contains(s, "intervention verify at call 2") {
		t.Fatalf("the round in full shows its interventions:\n%s", s)
	}
	press(b, "esc")
	if b.level != levelRounds {
		t.Fatal("esc goes back to the timeline")
	}
	press(b, "esc")
	if b.level != levelSessions {
		t.Fatal("esc goes back to the sessions")
	}
	for _, r := range "qwen" {
		press(b, string(r))
	}
	if got := b.filtered(); len(got) != 1 || got[0].Model != "qwen2.5-coder" {
		t.Fatalf("filter qwen: %v", got)
	}
	if s := screen(b); !strings.Contains(s, "filter: qwen") || strings.Contains(s, "gpt-4.1") {
		t.Fatalf("filtered list:\n%s", s)
	}
	press(b, "backspace")
	if b.filter != "qwe" {
		t.Fatal("backspace edits the filter")
	}
	if a := press(b, "esc"); b.filter != "" || a != None {
		t.Fatal("esc clears the filter first")
	}
	if a := press(b, "ctrl+r"); a != Resume || b.SelectedID() != sessions()[0].ID {
		t.Fatalf("ctrl+r resumes from the list: %v %q", a, b.SelectedID())
	}
	if a := press(b, "esc"); a != Close {
		t.Fatal("esc on the list closes the browser")
	}
}

func TestShowsLoadErrors(t *testing.T) {
	b := New(keys.Default().Browser)
	b.Loaded(SessionsMsg{Err: errors.New("database is locked")})
	if s := screen(b); !strings.Contains(s, "could not read the datalog: database is locked") {
		t.Fatalf("error not shown:\n%s", s)
	}
}

func TestLongTimelineKeepsCursorVisible(t *testing.T) {
	b := withRounds()
	d := b.detail
	for len(d.Rounds) < 1000 {
		r := *d.Rounds[len(d.Rounds)%3]
		r.Round.Seq = len(d.Rounds) + 1
		d.Rounds = append(d.Rounds, &r)
	}
	press(b, "end")
	if s := screen(b); !strings.Contains(s, "▶ round 1000 ") {
		t.Fatalf("end should show the last round:\n%s", s)
	}
	press(b, "home")
	if !strings.Contains(screen(b), "▶ round 1 ") {
		t.Fatal("home should show the first round")
	}
}
