package tools

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// ErrChangedSince is wrapped by Restore's error when a file changed after
// keel wrote it, so callers can tell a refusal from an I/O failure.
var ErrChangedSince = errors.New("changed since keel wrote it")

// Restore undoes changes (in the order they were made) by putting back
// each file's content in reverse order; a file keel created is removed.
// It first checks every file still holds what keel last wrote and, if any
// does not, restores nothing and names them.
func Restore(changes []FileChange) error {
	if err := checkUnchanged(changes); err != nil {
		return err
	}
	for i := len(changes) - 1; i >= 0; i-- {
		c := changes[i]
		if !c.Existed {
			if err := removeAt(c.Path); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("undo: remove %s: %w", c.Path, err)
			}
			continue
		}
		if err := writeAt(c.Path, c.Before, fs.FileMode(c.Mode)); err != nil {
			return fmt.Errorf("undo: %w", err)
		}
	}
	return nil
}

// checkUnchanged compares each file with the After of its last change.
func checkUnchanged(changes []FileChange) error {
	last := map[string][]byte{}
	var order []string
	for _, c := range changes {
		if _, seen := last[c.Path]; !seen {
			order = append(order, c.Path)
		}
		last[c.Path] = c.After
	}
	var changed []string
	for _, p := range order {
		cur, _, err := readAt(p, 0)
		switch {
		case os.IsNotExist(err):
			changed = append(changed, p+" (deleted)")
		case err != nil:
			return fmt.Errorf("undo: read %s: %w", p, err)
		case !bytes.Equal(cur, last[p]):
			changed = append(changed, p)
		}
	}
	if len(changed) > 0 {
		return fmt.Errorf("undo refused, nothing restored: %s %w", strings.Join(changed, ", "), ErrChangedSince)
	}
	return nil
}
