package datalog

import (
	"context"
	"fmt"
	"time"
)

// StatsScope selects what Stats covers: one session, or every session of
// a project (SessionID wins when both are set; neither means all).
type StatsScope struct {
	SessionID string
	Project   string
}

// Stats are the figures a person tuning the agent looks at.
type Stats struct {
	Sessions         int                 `json:"sessions"`
	Tasks            []TaskStats         `json:"tasks"`
	ReReads          []ReRead            `json:"rereads"`
	RepeatedCommands []RepeatedCommand   `json:"repeated_commands"`
	FailedByTool     []ToolCount         `json:"failed_by_tool"`
	UnverifiedEdits  []UnverifiedEdit    `json:"unverified_edits"`
	Interventions    []InterventionStats `json:"interventions"`
	Checkpoints      CheckpointStats     `json:"checkpoints"`
	Permissions      PermissionStats     `json:"permissions"`
}

// TaskStats are one user task's figures.
type TaskStats struct {
	SessionID    string        `json:"session_id"`
	Task         int           `json:"task"`
	Rounds       int           `json:"rounds"`
	ToolCalls    int           `json:"tool_calls"`
	Edits        int           `json:"edits"`
	FirstEdit    time.Duration `json:"first_edit_ns"` // from the task's first request; valid when Edits > 0
	TokensIn     int           `json:"tokens_in"`
	TokensOut    int           `json:"tokens_out"`
	TokensCached int           `json:"tokens_cached"`
	Cost         float64       `json:"cost"`
}

// ReRead is a file region read_file returned more than once in a task.
type ReRead struct {
	SessionID string `json:"session_id"`
	Task      int    `json:"task"`
	Path      string `json:"path"`
	Offset    int    `json:"offset"`
	Limit     int    `json:"limit"`
	Reads     int    `json:"reads"`
}

// RepeatedCommand is a run_command command run more than once in a task.
type RepeatedCommand struct {
	SessionID string `json:"session_id"`
	Task      int    `json:"task"`
	Command   string `json:"command"`
	Runs      int    `json:"runs"`
}

// ToolCount is a count per tool.
type ToolCount struct {
	Tool  string `json:"tool"`
	Count int    `json:"count"`
}

// UnverifiedEdit is an edit no verifying command (test, build, lint)
// followed in its task.
type UnverifiedEdit struct {
	SessionID string `json:"session_id"`
	Task      int    `json:"task"`
	Round     int    `json:"round"`
	Tool      string `json:"tool"`
	Path      string `json:"path"`
}

// InterventionStats count one kind of intervention and what followed.
type InterventionStats struct {
	Kind           string `json:"kind"`
	Fired          int    `json:"fired"`
	FollowedByEdit int    `json:"followed_by_edit"` // an edit within the next 3 rounds
}

// statsData is what Stats reads, per session in start order.
type statsData struct {
	sessions []string
	rounds   map[string][]Round
	calls    map[string][]ToolCall // ordered by round, index
	ivs      map[string][]Intervention
}

// Stats computes figures over the scope's sessions.
func (db *DB) Stats(ctx context.Context, scope StatsScope) (*Stats, error) {
	where, arg := `1=1`, any(nil)
	switch {
	case scope.SessionID != "":
		where, arg = `id = ?`, scope.SessionID
	case scope.Project != "":
		where, arg = `project_root = ?`, scope.Project
	}
	in := `(SELECT id FROM sessions WHERE ` + where + `)`
	args := []any{}
	if arg != nil {
		args = append(args, arg)
	}
	d, err := db.loadStats(ctx, in, args)
	if err != nil {
		return nil, fmt.Errorf("compute stats: %w", err)
	}
	st := computeStats(d)
	st.Permissions = permissionStats(d)
	if st.Checkpoints, err = db.checkpointStats(ctx, in, args); err != nil {
		return nil, fmt.Errorf("compute stats: %w", err)
	}
	return st, nil
}

func (db *DB) loadStats(ctx context.Context, in string, args []any) (*statsData, error) {
	d := &statsData{rounds: map[string][]Round{}, calls: map[string][]ToolCall{}, ivs: map[string][]Intervention{}}
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT id FROM sessions WHERE id IN `+in+` ORDER BY started_at, id`, args...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		d.sessions = append(d.sessions, id)
	}
	rows.Close()
	if err := db.loadStatsRounds(ctx, d, in, args); err != nil {
		return nil, err
	}
	if err := db.loadStatsCalls(ctx, d, in, args); err != nil {
		return nil, err
	}
	return d, db.loadStatsInterventions(ctx, d, in, args)
}

func (db *DB) loadStatsRounds(ctx context.Context, d *statsData, in string, args []any) error {
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT session_id, seq, task_seq, duration_ns, tokens_in,
		tokens_out, tokens_cached, cost, started_at FROM rounds WHERE session_id IN `+in+` ORDER BY session_id, seq`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r Round
		var dur, started int64
		if err := rows.Scan(&r.SessionID, &r.Seq, &r.TaskSeq, &dur, &r.TokensIn, &r.TokensOut,
			&r.TokensCached, &r.Cost, &started); err != nil {
			return err
		}
		r.Duration, r.Started = time.Duration(dur), fromNanos(started)
		d.rounds[r.SessionID] = append(d.rounds[r.SessionID], r)
	}
	return rows.Err()
}

func (db *DB) loadStatsCalls(ctx context.Context, d *statsData, in string, args []any) error {
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT session_id, round_seq, idx, name, arguments, is_error, verified, permission, decided_by
		FROM tool_calls WHERE session_id IN `+in+` ORDER BY session_id, round_seq, idx`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c ToolCall
		if err := rows.Scan(&c.SessionID, &c.Round, &c.Index, &c.Name, &c.Arguments, &c.IsError, &c.Verified, &c.Permission, &c.DecidedBy); err != nil {
			return err
		}
		d.calls[c.SessionID] = append(d.calls[c.SessionID], c)
	}
	return rows.Err()
}

func (db *DB) loadStatsInterventions(ctx context.Context, d *statsData, in string, args []any) error {
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT session_id, round_seq, kind FROM interventions
		WHERE session_id IN `+in+` ORDER BY session_id, round_seq, idx`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var iv Intervention
		if err := rows.Scan(&iv.SessionID, &iv.Round, &iv.Kind); err != nil {
			return err
		}
		d.ivs[iv.SessionID] = append(d.ivs[iv.SessionID], iv)
	}
	return rows.Err()
}
