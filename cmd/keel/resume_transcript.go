package main

import (
	"context"

	"github.com/keel-dev/keel/agent/datalog"
)

// resumeTailRounds is how many of a resumed session's last rounds the TUI
// shows first: far more than a screen, and read in a few milliseconds
// where a session of thousands of rounds takes over 100 ms.
const resumeTailRounds = 100

// transcriptTail is the datalog's record of a resumed session's last
// rounds, so the TUI shows its transcript as it looked live, and the
// loader of the whole record when the tail left rounds out (the TUI runs
// it after its first frame). The TUI asks for it in sessionSetup; the
// session's builder starts reading it as soon as it knows which session
// resumes, so it is read while the history the agent needs loads.
type transcriptTail struct {
	done   chan struct{} // nil: nothing was started (a new session)
	detail *datalog.SessionDetail
	rest   func() *datalog.SessionDetail
}

// start reads session id's last rounds in the background.
func (t *transcriptTail) start(ctx context.Context, db *datalog.DB, id string) {
	if t == nil {
		return
	}
	t.done = make(chan struct{})
	go func() {
		defer close(t.done)
		t.detail, t.rest = loadTranscriptTail(ctx, db, id)
	}()
}

// wait returns what start read: nil for a new session or when the
// record cannot be read (the TUI then rebuilds the transcript from the
// history).
func (t *transcriptTail) wait() (*datalog.SessionDetail, func() *datalog.SessionDetail) {
	if t == nil || t.done == nil {
		return nil, nil
	}
	<-t.done
	return t.detail, t.rest
}

func loadTranscriptTail(ctx context.Context, db *datalog.DB, id string) (*datalog.SessionDetail, func() *datalog.SessionDetail) {
	d, err := db.LoadTranscriptTail(ctx, id, resumeTailRounds)
	if err != nil {
		return nil, nil
	}
	if !d.Tail {
		return d, nil
	}
	return d, func() *datalog.SessionDetail {
		whole, err := db.LoadTranscript(context.Background(), id)
		if err != nil {
			return nil // the tail stays
		}
		return whole
	}
}
