package ui

import (
	"os"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
)

// TerminalProbe finds the terminal's colour profile in the background while
// cmd/keel builds the session, so the TUI's first frame does not wait for
// it: inside tmux, colorprofile runs `tmux info`, a process start (5–12 ms
// measured before the first frame).
type TerminalProbe struct {
	done    chan struct{}
	profile colorprofile.Profile
}

// ProbeTerminal starts finding the profile of stdout's terminal, as Bubble
// Tea would find it at start (the same output and environment).
func ProbeTerminal() *TerminalProbe {
	t := &TerminalProbe{done: make(chan struct{})}
	go func() {
		defer close(t.done)
		t.profile = colorprofile.Detect(os.Stdout, os.Environ())
	}()
	return t
}

// Profile waits for the probe and returns the profile it found.
func (t *TerminalProbe) Profile() colorprofile.Profile {
	<-t.done
	return t.profile
}

// terminalSize is stdout's terminal's size, when stdout is one: the model
// then lays out its first view before Bubble Tea's first WindowSizeMsg, so
// the first frame is the whole screen.
func terminalSize() (width, height int, ok bool) {
	w, h, err := term.GetSize(os.Stdout.Fd())
	return w, h, err == nil && w > 0 && h > 0
}
