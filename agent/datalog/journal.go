package datalog

import (
	"context"
	"fmt"
	"strings"
)

// The file journal. Before a tool changes a file, JournalChange commits
// the file as it is (a pending file_changes row: path, content before or
// a large edit's splices, mode, and the hashes before and, when known,
// after). The round's commit completes the row (its content after) or
// drops it (the call changed nothing after all). A row still pending is
// a change keel was making when it was stopped: undo compares the file
// with its states to decide what happened.

// JournalEntry is a file change about to be made by call CallID of round
// Round (task TaskSeq) of a session. Change.After is not needed:
// Change.AfterSHA256 is the hash of what will be written, "" when only
// the write will know it (a large edit).
type JournalEntry struct {
	SessionID string
	Round     int
	TaskSeq   int
	CallID    string
	Change    FileChange
}

// encodedChange is a file change's contents as stored.
type encodedChange struct {
	before, after       []byte
	beforeEnc, afterEnc string
}

// encodeChange compresses a (redacted) change's contents.
func encodeChange(fc FileChange) encodedChange {
	e := encodeAfterOnly(fc)
	e.before, e.beforeEnc = encodeContent(fc.Before)
	return e
}

// encodeAfterOnly compresses a change's content after: a journaled
// change's row has its content before already.
func encodeAfterOnly(fc FileChange) encodedChange {
	var e encodedChange
	if fc.After != nil {
		e.after, e.afterEnc = encodeAfter(fc.Before, fc.After)
	}
	return e
}

// JournalChange commits e before its file is changed and returns the
// row's id for the change's round (FileChange.JournalID). It waits for
// the commit. When the datalog cannot record, it returns the error and
// keeps nothing to retry: the caller does not make the change.
func (db *DB) JournalChange(ctx context.Context, e JournalEntry) (int64, error) {
	after := hexSHA(e.Change.AfterSHA256)
	fc := db.red.fileChange(e.Change)
	if len(fc.Splices) == 0 {
		fc.AfterSHA256 = after // fileChange hashed the After the entry does not have
	}
	fc.After = nil
	enc := encodeChange(fc)
	callID := db.red.String(e.CallID)
	var id int64
	err := db.submitOnce(ctx, fmt.Sprintf("the journal of %s", fc.Path), func(ctx context.Context, tx *wtx) error {
		res, err := tx.Exec(ctx, `INSERT INTO file_changes (session_id, round_seq, task_seq, tool_call_id, path,
			existed, before, before_enc, mode, before_sha256, after_sha256, path_redacted, before_redacted,
			splices, splices_redacted, state, new_dirs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
			e.SessionID, e.Round, e.TaskSeq, callID, fc.Path, fc.Existed, enc.before, enc.beforeEnc, int64(fc.Mode),
			fc.BeforeSHA256, fc.AfterSHA256, fc.PathRedacted, fc.BeforeRedacted, string(fc.Splices), fc.SplicesRedacted,
			db.red.String(strings.Join(fc.NewDirs, "\n")))
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, err
}

// completeJournaled finishes a journaled change in its round's commit:
// the row is no longer pending and gets its content after. It reports
// false when there is no such row (then the caller inserts the change).
func completeJournaled(ctx context.Context, tx *wtx, sid string, round, task int, fc FileChange, enc encodedChange) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE file_changes SET state = '', round_seq = ?, task_seq = ?, tool_call_id = ?,
		after = ?, after_enc = ?, after_sha256 = ?, after_redacted = ? WHERE id = ? AND session_id = ?`,
		round, task, fc.ToolCallID, enc.after, enc.afterEnc, fc.AfterSHA256, fc.AfterRedacted, fc.JournalID, sid)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// dropJournaled deletes journal rows of calls that changed nothing.
func dropJournaled(ctx context.Context, tx *wtx, sid string, ids []int64) error {
	for _, id := range ids {
		if _, err := tx.Exec(ctx, `DELETE FROM file_changes WHERE id = ? AND session_id = ? AND state = 'pending'`, id, sid); err != nil {
			return err
		}
	}
	return nil
}

// JournaledPaths returns the paths of the project's file changes that
// are still pending (keel was stopped while making them) or that an
// interrupted undo was restoring: where a write may have left a temp
// file. The newest first, at most limit.
func (db *DB) JournaledPaths(ctx context.Context, root string, limit int) ([]string, error) {
	rows, err := db.reader(ctx).QueryContext(ctx, `SELECT f.path FROM file_changes f
		JOIN sessions s ON s.id = f.session_id
		WHERE s.project_root = ? AND f.path_redacted = 0 AND (f.state = 'pending'
			OR f.undo_run IN (SELECT id FROM undo_runs WHERE finished_at IS NULL))
		GROUP BY f.path ORDER BY MAX(f.id) DESC LIMIT ?`, db.red.String(root), limit)
	if err != nil {
		return nil, fmt.Errorf("read the file journal: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
