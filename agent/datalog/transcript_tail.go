package datalog

import (
	"context"
	"fmt"
)

// LoadTranscriptTail is LoadTranscript for a session's last n rounds, so
// a long session's first screen does not wait for every round: the TUI
// paints these and loads the rest after. Tail says earlier rounds were
// left out. A history-replacing round near the start of the tail keeps
// the copies whose originals are not in it.
func (db *DB) LoadTranscriptTail(ctx context.Context, id string, n int) (*SessionDetail, error) {
	var last int
	err := db.reader(ctx).QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM rounds WHERE session_id = ?`, id).Scan(&last)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	first := max(1, last-n+1)
	d, err := db.LoadRounds(ctx, id, first, max(last, 1))
	if err != nil {
		return nil, err
	}
	dropRestored(d.Rounds)
	if err := db.fillContents(ctx, id, first, d.Rounds); err != nil {
		return nil, err
	}
	d.Tail = first > 1
	return d, nil
}
