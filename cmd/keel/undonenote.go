package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
)

// undoneNote is the message a resumed session adds to its history when
// keel undo reverted the model's edits since its last round, so the model
// does not build on edits that are gone (issue 18 item 8); nil when there
// is nothing to tell. The first round writes it to the datalog with the
// history, so a later resume does not repeat it.
func undoneNote(ctx context.Context, db *datalog.DB, id, root string) *llm.Message {
	changes, err := db.UndoneSinceLastRound(ctx, id)
	if err != nil || len(changes) == 0 {
		return nil // the resume goes on without the note rather than fail on it
	}
	text := undoneText(changes, root)
	return &llm.Message{Role: llm.RoleUser, Content: text}
}

// undoneText says, task by task, which files undo put back and which
// (changed by commands) it left as they were.
func undoneText(changes []datalog.UndoneChange, root string) string {
	var b strings.Builder
	b.WriteString(llm.NoteMark + "The user ran keel undo since your last answer.")
	for i := 0; i < len(changes); {
		task := changes[i].TaskSeq
		var reverted, left []string
		for ; i < len(changes) && changes[i].TaskSeq == task; i++ {
			if changes[i].ByCommand {
				left = append(left, relPath(root, changes[i].Path))
			} else {
				reverted = append(reverted, relPath(root, changes[i].Path))
			}
		}
		if len(reverted) > 0 {
			fmt.Fprintf(&b, " keel undo reverted your changes to %s in task %d; the files are as they were before it.", strings.Join(reverted, ", "), task)
		}
		if len(left) > 0 {
			fmt.Fprintf(&b, " Files commands changed in task %d were left as they are: %s.", task, strings.Join(left, ", "))
		}
	}
	b.WriteString(" Read a file again before you rely on its content.")
	return b.String()
}

// relPath is path relative to root when it is inside it.
func relPath(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return path
	}
	return rel
}
