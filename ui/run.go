package ui

import (
	"context"
	"errors"
	"os"

	tea "charm.land/bubbletea/v2"
)

// Run runs the UI until the user quits (or ctx ends) and cancels the
// running task on the way out. It uses the alternate screen; the mouse is
// captured only with Options.Mouse, so native text selection keeps working
// by default. NO_COLOR is honoured.
//
// When the user asked to resume a logged session and Options.Resume is
// nil, Run returns a *ResumeRequest.
func Run(ctx context.Context, opts Options) error {
	if os.Getenv("NO_COLOR") != "" {
		opts.NoColor = true
	}
	if w, h, ok := terminalSize(); ok && opts.Width == 0 {
		opts.Width, opts.Height = w, h // the first view is the whole screen
	}
	m := New(opts)
	m.ctx = ctx
	popts := programOptions(ctx)
	if opts.Terminal != nil {
		popts = append(popts, tea.WithColorProfile(opts.Terminal.Profile()))
	}
	p := tea.NewProgram(m, popts...)
	_, err := p.Run()
	if m.session != nil {
		m.session.Cancel()
	}
	if ctx.Err() != nil && errors.Is(err, tea.ErrProgramKilled) {
		err = nil // the caller asked us to stop
	}
	if err == nil && m.resumeID != "" {
		return &ResumeRequest{SessionID: m.resumeID}
	}
	if err == nil && m.demoAsked {
		return ErrDemoRequested
	}
	return err
}

// programOptions are the options Run starts Bubble Tea with (tests add
// their own input and output to the same set).
//
// The frame rate is Bubble Tea's default, 60 fps: its renderer compares
// the view with the last one drawn on each tick and writes only what
// changed, so an idle TUI writes nothing (the ticker itself still wakes;
// see docs/upstream/bubbletea-idle-render-loop.md).
func programOptions(ctx context.Context) []tea.ProgramOption {
	return []tea.ProgramOption{tea.WithContext(ctx)}
}
