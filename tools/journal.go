package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Journal records a file as it is before keel changes it, durably, so
// undo can put it back even when keel is killed during the write (the
// datalog's file journal). Record gets the change before it is made: the
// path, whether the file existed, its content and mode (or a large
// edit's splices with the file's hash), and the hash of the content about
// to be written (empty when only the write will know it). It returns an
// id the change then carries (FileChange.JournalID), or an error: the
// tool then writes nothing and says why.
type Journal interface {
	Record(ctx context.Context, c FileChange) (id int64, err error)
}

// SetJournal makes every write and edit record the file first; call it
// before the session starts. Without one, writes are not journaled (no
// datalog: undo is not offered).
func (w *Workspace) SetJournal(j Journal) { w.journal = j }

// record journals c before it is made. A refusal is the message the
// model gets instead of the write.
func (w *Workspace) record(ctx context.Context, c *FileChange) string {
	if w.journal == nil {
		return ""
	}
	id, err := w.journal.Record(ctx, *c)
	if err != nil {
		return fmt.Sprintf("%s not changed: %v", w.Rel(c.Path), err)
	}
	c.JournalID = id
	return ""
}

// sha256Hex is the hex SHA-256 of b.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
