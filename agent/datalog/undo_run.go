package datalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Undo's own journal. An undo commits which changes it is about to revert
// (BeginUndo) before it touches a file and commits the end (FinishUndo)
// after the last; an undo killed in between is found by the next one
// (UnfinishedUndo), which finishes it: each file is then in a state its
// changes left it in, and undo takes it from there.

// UndoRun is an undo that began.
type UndoRun struct {
	ID        int64
	SessionID string
	TaskSeq   int
	Started   time.Time
}

// BeginUndo commits that an undo of the changes ids (task task of
// session sessionID) begins, and returns the run's id. Call it before
// touching any file, and FinishUndo after.
func (db *DB) BeginUndo(ctx context.Context, sessionID string, task int, ids []int64) (int64, error) {
	at := nanos(db.opts.Now())
	var run int64
	err := db.submitOnce(ctx, "the start of an undo", func(ctx context.Context, tx *wtx) error {
		res, err := tx.Exec(ctx, `INSERT INTO undo_runs (session_id, task_seq, started_at) VALUES (?, ?, ?)`, sessionID, task, at)
		if err != nil {
			return err
		}
		if run, err = res.LastInsertId(); err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := tx.Exec(ctx, `UPDATE file_changes SET undo_run = ? WHERE id = ? AND undone_at IS NULL`, run, id); err != nil {
				return err
			}
		}
		return nil
	})
	return run, err
}

// FinishUndo commits the end of undo run: the changes done are marked
// undone; the run's other changes are released, for a later undo to try
// again.
func (db *DB) FinishUndo(ctx context.Context, run int64, done []int64) error {
	at := nanos(db.opts.Now())
	return db.submit(ctx, "the end of an undo", func(ctx context.Context, tx *wtx) error {
		for _, id := range done {
			if _, err := tx.Exec(ctx, `UPDATE file_changes SET undone_at = ? WHERE id = ? AND undo_run = ?`, at, id, run); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE file_changes SET undo_run = NULL WHERE undo_run = ?`, run); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE undo_runs SET finished_at = ? WHERE id = ?`, at, run)
		return err
	})
}

// UnfinishedUndo returns the latest undo of a session in the project at
// root that began and never finished (keel was killed during it), with
// the changes it was reverting (as TaskFileChanges returns them); nil
// when there is none.
func (db *DB) UnfinishedUndo(ctx context.Context, root string) (*UndoRun, []FileChange, error) {
	var r UndoRun
	var started int64
	err := db.reader(ctx).QueryRowContext(ctx, `SELECT u.id, u.session_id, u.task_seq, u.started_at FROM undo_runs u
		JOIN sessions s ON s.id = u.session_id
		WHERE u.finished_at IS NULL AND s.project_root = ? ORDER BY u.id DESC LIMIT 1`, db.red.String(root)).
		Scan(&r.ID, &r.SessionID, &r.TaskSeq, &started)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("look for an interrupted undo: %w", err)
	}
	r.Started = fromNanos(started)
	changes, err := db.fileChangesWhere(ctx, `undo_run = ? AND undone_at IS NULL`, r.ID)
	if err != nil {
		return nil, nil, err
	}
	return &r, changes, nil
}
