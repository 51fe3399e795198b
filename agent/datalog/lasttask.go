package datalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The last task of a project is also noted in a small file beside the
// database, outside SQLite: when the database could not take a task's
// records (another process held its lock until keel was killed), undo
// would otherwise take an older task for the last one and restore the
// wrong files. Undo compares the two and refuses when they disagree.

// noteDir is where the notes live, one file per project.
func (db *DB) noteFile(root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(filepath.Dir(db.path), "last-task", hex.EncodeToString(sum[:16]))
}

// NoteLastTask records that task of session is the last task started in
// the project at root. It writes a plain file, so it works while the
// database is locked.
func (db *DB) NoteLastTask(root, sessionID string, task int) error {
	p := db.noteFile(root)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("note the last task: %w", err)
	}
	tmp := fmt.Sprintf("%s.%d.tmp", p, os.Getpid())
	if err := os.WriteFile(tmp, fmt.Appendf(nil, "%s %d\n", sessionID, task), 0o600); err != nil {
		return fmt.Errorf("note the last task: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("note the last task: %w", err)
	}
	return nil
}

// CheckLastTask returns nil when the datalog holds the last task started
// in the project at root (or nothing was noted), and otherwise an error
// saying which task is missing.
func (db *DB) CheckLastTask(ctx context.Context, root string) error {
	b, err := os.ReadFile(db.noteFile(root))
	if err != nil {
		return nil // no note: a datalog older than notes, or never a tool run
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return nil
	}
	id := f[0]
	task, err := strconv.Atoi(f[1])
	if err != nil {
		return nil
	}
	var n int
	// A change journaled before its round was committed counts: undo has it.
	err = db.reader(ctx).QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM rounds WHERE session_id = ? AND task_seq = ?)
		+ (SELECT COUNT(*) FROM file_changes WHERE session_id = ? AND task_seq = ?)`, id, task, id, task).Scan(&n)
	if err != nil {
		return fmt.Errorf("check the last task: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("the last task run here (task %d of session %s) is missing from the datalog "+
			"(keel could not save it), so undo would act on an older task; nothing restored: check the files with git", task, ShortID(id))
	}
	return nil
}
