package datalog

import (
	"context"
	"fmt"
)

// UndoneChange is a file change keel undo reverted.
type UndoneChange struct {
	TaskSeq   int
	Path      string // as stored (a redacted path shows its marks)
	ByCommand bool   // changed by a command: undo left the file as it was
}

// UndoneSinceLastRound returns the session's file changes that keel undo
// reverted after its last round started, by task, oldest first, one per
// task and path: what the model has not been told of when the session is
// resumed. A round written after the undo carries the telling, so it is
// not repeated.
func (db *DB) UndoneSinceLastRound(ctx context.Context, sessionID string) ([]UndoneChange, error) {
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT task_seq, path, MIN(by_command) FROM file_changes
		WHERE session_id = ? AND undone_at IS NOT NULL
			AND undone_at > (SELECT COALESCE(MAX(started_at), 0) FROM rounds WHERE session_id = ?)
		GROUP BY task_seq, path ORDER BY task_seq, MIN(id)`, sessionID, sessionID)
	if err != nil {
		return nil, fmt.Errorf("load undone changes of session %s: %w", sessionID, err)
	}
	defer rows.Close()
	var out []UndoneChange
	for rows.Next() {
		var c UndoneChange
		if err := rows.Scan(&c.TaskSeq, &c.Path, &c.ByCommand); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load undone changes of session %s: %w", sessionID, err)
	}
	return out, nil
}
