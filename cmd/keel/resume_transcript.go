package main

import (
	"context"

	"github.com/keel-dev/keel/agent/datalog"
)

// resumeTailRounds is how many of a resumed session's last rounds the TUI
// shows first: far more than a screen, and read in a few milliseconds
// where a session of thousands of rounds takes over 100 ms.
const resumeTailRounds = 100

// resumedTranscript is the datalog's record of a resumed session's last
// rounds, so the TUI shows its transcript as it looked live, and the
// loader of the whole record when the tail left rounds out (the TUI runs
// it after its first frame). Nil for a new session, or when it cannot be
// read (the TUI then rebuilds the transcript from the history).
func resumedTranscript(ctx context.Context, b *builtSession) (*datalog.SessionDetail, func() *datalog.SessionDetail) {
	if b.db == nil || len(b.session.History()) == 0 {
		return nil, nil
	}
	id := b.session.ID()
	d, err := b.db.LoadTranscriptTail(ctx, id, resumeTailRounds)
	if err != nil {
		return nil, nil
	}
	if !d.Tail {
		return d, nil
	}
	return d, func() *datalog.SessionDetail {
		whole, err := b.db.LoadTranscript(context.Background(), id)
		if err != nil {
			return nil // the tail stays
		}
		return whole
	}
}
