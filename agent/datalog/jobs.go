package datalog

import (
	"context"
	"database/sql"
	"time"
)

// Job is a background job a session started: written when it starts and
// again when it ends.
type Job struct {
	SessionID   string     `json:"session_id"`
	ID          string     `json:"job_id"`
	Command     string     `json:"command"`
	Workdir     string     `json:"workdir,omitempty"`
	Started     time.Time  `json:"started"`
	Ended       *time.Time `json:"ended,omitempty"` // nil while it runs
	ExitCode    *int       `json:"exit_code,omitempty"`
	StoppedBy   string     `json:"stopped_by,omitempty"` // "job_stop" or "session end"
	OutputBytes int64      `json:"output_bytes"`
}

const upsertJobSQL = `INSERT INTO jobs (session_id, job_id, command, workdir, started_at, ended_at, exit_code, stopped_by, output_bytes)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (session_id, job_id) DO UPDATE SET ended_at = excluded.ended_at, exit_code = excluded.exit_code,
		stopped_by = excluded.stopped_by, output_bytes = excluded.output_bytes`

// WriteJob records a job's start, or its end over the start's row. The
// command is redacted like every other text.
func (db *DB) WriteJob(ctx context.Context, j Job) error {
	j.Command, j.Workdir, j.StoppedBy = db.red.String(j.Command), db.red.String(j.Workdir), db.red.String(j.StoppedBy)
	var ended, code any
	if j.Ended != nil {
		ended = nanos(*j.Ended)
	}
	if j.ExitCode != nil {
		code = *j.ExitCode
	}
	return db.submit(ctx, "job "+j.ID, func(ctx context.Context, tx *wtx) error {
		_, err := tx.Exec(ctx, upsertJobSQL, j.SessionID, j.ID, j.Command, j.Workdir, nanos(j.Started), ended, code, j.StoppedBy, j.OutputBytes)
		return err
	})
}

// Jobs lists a session's background jobs in the order they started.
func (db *DB) Jobs(ctx context.Context, sessionID string) ([]Job, error) {
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT job_id, command, workdir, started_at, ended_at, exit_code, stopped_by, output_bytes
		FROM jobs WHERE session_id = ? ORDER BY started_at, job_id`, sessionID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Job
	for rows.Next() {
		j := Job{SessionID: sessionID}
		var started int64
		var ended, code sql.NullInt64
		if err := rows.Scan(&j.ID, &j.Command, &j.Workdir, &started, &ended, &code, &j.StoppedBy, &j.OutputBytes); err != nil {
			return nil, err
		}
		j.Started = time.Unix(0, started)
		if ended.Valid {
			t := time.Unix(0, ended.Int64)
			j.Ended = &t
		}
		if code.Valid {
			c := int(code.Int64)
			j.ExitCode = &c
		}
		out = append(out, j)
	}
	return out, rows.Err()
}
