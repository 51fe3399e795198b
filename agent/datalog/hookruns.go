package datalog

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// HookRun is one run of a user's hook command.
type HookRun struct {
	SessionID string        `json:"session_id"`
	Round     int           `json:"round"` // the session's last round when it ran
	Event     string        `json:"event"`
	Matcher   string        `json:"matcher,omitempty"`
	Command   string        `json:"command"`
	Tool      string        `json:"tool,omitempty"`
	CallID    string        `json:"call_id,omitempty"`
	ExitCode  int           `json:"exit_code"` // -1 when it did not exit by itself
	Duration  time.Duration `json:"duration_ns"`
	TimedOut  bool          `json:"timed_out"`
	Decision  string        `json:"decision,omitempty"` // block, allow, ask, error
	Reason    string        `json:"reason,omitempty"`
	At        time.Time     `json:"at"`
}

// QueueHookRun hands a hook run to the writer (redacted) without waiting;
// wait returns how the write went.
func (db *DB) QueueHookRun(ctx context.Context, h HookRun) (wait func() error) {
	for _, p := range []*string{&h.Event, &h.Matcher, &h.Command, &h.Tool, &h.CallID, &h.Decision, &h.Reason} {
		*p = db.red.String(*p)
	}
	return db.queue(ctx, fmt.Sprintf("%s hook run", h.Event), func(ctx context.Context, tx *wtx) error {
		_, err := tx.Exec(ctx, `INSERT INTO hook_runs (session_id, round_seq, event, matcher, command, tool, call_id,
			exit_code, duration_ns, timed_out, decision, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			h.SessionID, h.Round, h.Event, h.Matcher, h.Command, h.Tool, h.CallID, h.ExitCode, int64(h.Duration), h.TimedOut,
			h.Decision, h.Reason, nanos(h.At))
		return err
	})
}

// HookRuns returns a session's hook runs in order.
func (db *DB) HookRuns(ctx context.Context, sessionID string) ([]HookRun, error) {
	var out []HookRun
	err := eachRow(ctx, db.reader(ctx), `SELECT round_seq, event, matcher, command, tool, call_id, exit_code, duration_ns,
		timed_out, decision, reason, at FROM hook_runs WHERE session_id = ? ORDER BY id`, []any{sessionID}, func(rows *sql.Rows) error {
		h := HookRun{SessionID: sessionID}
		var dur, at int64
		if err := rows.Scan(&h.Round, &h.Event, &h.Matcher, &h.Command, &h.Tool, &h.CallID, &h.ExitCode, &dur,
			&h.TimedOut, &h.Decision, &h.Reason, &at); err != nil {
			return err
		}
		h.Duration, h.At = time.Duration(dur), fromNanos(at)
		out = append(out, h)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load hook runs of session %s: %w", sessionID, err)
	}
	return out, nil
}

// linkChild records that the session r is a subagent of r.ParentID,
// started by the task call r.ParentCallID.
func linkChild(ctx context.Context, tx *wtx, r Session) error {
	_, err := tx.Exec(ctx, `UPDATE sessions SET parent_id = ?, parent_call_id = ?, agent = ? WHERE id = ?`, r.ParentID, r.ParentCallID, r.Agent, r.ID)
	return err
}

// Children returns the subagent sessions a session started, in order.
func (db *DB) Children(ctx context.Context, parentID string) ([]Session, error) {
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE parent_id = ? ORDER BY started_at, id`, parentID)
	if err != nil {
		return nil, fmt.Errorf("list the subagents of session %s: %w", parentID, err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list the subagents of session %s: %w", parentID, err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
