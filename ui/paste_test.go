package ui

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Terminals end pasted lines with LF, CRLF or a lone CR (tmux's
// paste-buffer -p sends CR): each is a new line, and a long paste
// collapses to its placeholder whatever the convention.
var newlineConventions = []struct{ name, nl string }{{"LF", "\n"}, {"CRLF", "\r\n"}, {"CR", "\r"}}

func pastedLines(n int, nl string) string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = "line " + string(rune('a'+i))
	}
	return strings.Join(lines, nl)
}

func TestPasteNewlines(t *testing.T) {
	for _, c := range newlineConventions {
		t.Run(c.name+"/short", func(t *testing.T) {
			m := newTestModel(t, 80, 24)
			send(m, tea.PasteMsg{Content: pastedLines(3, c.nl)})
			if got, want := m.input.Value(), pastedLines(3, "\n"); got != want {
				t.Fatalf("box holds %q, want %q", got, want)
			}
			if m.running {
				t.Fatal("a newline in a paste must not send the prompt")
			}
		})
		t.Run(c.name+"/long", func(t *testing.T) {
			m := newTestModel(t, 80, 24)
			send(m, tea.PasteMsg{Content: pastedLines(12, c.nl)})
			if got := m.input.Value(); got != "[pasted 12 lines]" {
				t.Fatalf("box shows %q, want the placeholder", got)
			}
			prompt, _ := m.input.Take()
			if want := pastedLines(12, "\n"); prompt != want {
				t.Fatalf("prompt %q, want %q", prompt, want)
			}
		})
		t.Run(c.name+"/trailing line end", func(t *testing.T) {
			m := newTestModel(t, 80, 24)
			send(m, tea.PasteMsg{Content: pastedLines(12, c.nl) + c.nl})
			if got := m.input.Value(); got != "[pasted 12 lines]" {
				t.Fatalf("box shows %q, want 12 lines: the last line end starts no line", got)
			}
		})
		t.Run(c.name+"/under the threshold of 10 lines", func(t *testing.T) {
			m := newTestModel(t, 80, 24)
			send(m, tea.PasteMsg{Content: pastedLines(9, c.nl)})
			if got := m.input.Value(); got != pastedLines(9, "\n") {
				t.Fatalf("a short paste must not collapse: box shows %q", got)
			}
		})
	}
}

// TestBracketedPasteThroughTheTerminalReader feeds the bytes a terminal
// sends for a bracketed paste with CR line ends (tmux paste-buffer -p)
// through a real Bubble Tea program: the paste arrives as one unit, is
// not sent by its CRs, and collapses. ctrl+c clears the box (↑ brings
// the paste back whole) and two more quit.
func TestBracketedPasteThroughTheTerminalReader(t *testing.T) {
	for _, c := range newlineConventions {
		t.Run(c.name, func(t *testing.T) {
			m := newTestModel(t, 100, 30)
			in := "\x1b[200~" + pastedLines(12, c.nl) + "\x1b[201~" + "\x03\x03\x03"
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			opts := append(programOptions(ctx), tea.WithInput(strings.NewReader(in)),
				tea.WithOutput(io.Discard), tea.WithWindowSize(100, 30))
			final, err := tea.NewProgram(m, opts...).Run()
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			fm := final.(*Model)
			if fm.input.Value() != "" {
				t.Fatalf("ctrl+c should have cleared the box, box %q", fm.input.Value())
			}
			send(fm, press("up")) // the cleared text is in the history
			if got := fm.input.Value(); got != "[pasted 12 lines]" {
				t.Fatalf("box shows %q, want the placeholder", got)
			}
			if fm.running || fm.tr.Len() != 0 {
				t.Fatalf("the paste sent something: running %v, %d entries", fm.running, fm.tr.Len())
			}
			prompt, _ := fm.input.Take()
			if want := pastedLines(12, "\n"); prompt != want {
				t.Fatalf("prompt %q, want %q", prompt, want)
			}
		})
	}
}
