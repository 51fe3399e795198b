package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestCtrlCClearsTheInput: on an idle prompt with text in the input,
// ctrl+c empties it (multi-line and pastes too), keeps it for ↑ and does
// not arm quitting; with an empty input it is the quit key. (While a task
// runs ctrl+c stops it first: TestCtrlCStopsARunningTask.)
func TestCtrlCClearsTheInput(t *testing.T) {
	tests := []struct {
		name    string
		typed   []string // keys typed before ctrl+c
		running bool
		cleared bool // ctrl+c cleared (else it armed quitting)
	}{
		{name: "multi-line text", typed: []string{"o", "n", "e", "alt+enter", "t", "w", "o"}, cleared: true},
		{name: "empty input quits", cleared: false},
		{name: "spaces only quit", typed: []string{" ", " "}, cleared: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "h.jsonl")
			m := historyModel(t, path)
			m.running = tt.running
			for _, k := range tt.typed {
				send(m, press(k))
			}
			before := strings.TrimSpace(m.input.Value())
			send(m, press("ctrl+c"))
			if tt.cleared != !m.quitArmed {
				t.Fatalf("quit armed = %v, want %v", m.quitArmed, !tt.cleared)
			}
			if !tt.cleared {
				return
			}
			if m.input.Value() != "" || !strings.Contains(plain(m), "cleared the input") {
				t.Fatalf("want an empty box and a hint, box %q:\n%s", m.input.Value(), plain(m))
			}
			send(m, press("right")) // any key clears the hint: the bar shows again
			if strings.Contains(statusLine(m), "cancelling") || !m.running == tt.running {
				t.Fatalf("clearing the input must not cancel the task:\n%s", plain(m))
			}
			if _, err := os.Stat(path); err == nil {
				t.Fatal("a cleared input was never sent: it is not saved to the history file")
			}
			send(m, press("up"))
			if got := m.input.Value(); got != before {
				t.Fatalf("↑ brings back %q, want %q", got, before)
			}
		})
	}
}

// TestCtrlCClearsAPaste: a cleared collapsed paste comes back whole.
func TestCtrlCClearsAPaste(t *testing.T) {
	m := newTestModel(t, 80, 24)
	long := pastedLines(12, "\n")
	send(m, tea.PasteMsg{Content: long}, press("ctrl+c"), press("up"))
	if prompt, _ := m.input.Take(); prompt != long {
		t.Fatalf("the recalled paste sends %q", prompt)
	}
}

// TestCtrlCOnTheWelcomeScreenQuits: there is no input to clear there.
func TestCtrlCOnTheWelcomeScreenQuits(t *testing.T) {
	m := welcomeModel(t, nil)
	send(m, press("ctrl+c"))
	if !m.quitArmed {
		t.Fatal("ctrl+c on the welcome screen arms quitting")
	}
}
