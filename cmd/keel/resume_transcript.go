package main

import (
	"context"

	"github.com/keel-dev/keel/agent/datalog"
)

// resumedTranscript is the datalog's record of a resumed session, so the
// TUI shows its transcript as it looked live; nil for a new session, or
// when it cannot be read (the TUI then rebuilds it from the history).
func resumedTranscript(ctx context.Context, b *builtSession) *datalog.SessionDetail {
	if b.db == nil || len(b.session.History()) == 0 {
		return nil
	}
	d, err := b.db.LoadTranscript(ctx, b.session.ID())
	if err != nil {
		return nil
	}
	return d
}
