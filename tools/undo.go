package tools

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrChangedSince is wrapped by Restore's error when a file changed after
// keel wrote it, so callers can tell a refusal from an I/O failure.
var ErrChangedSince = errors.New("changed since keel wrote it")

// Restore undoes changes (in the order they were made) by putting back
// each file's content in reverse order; a file keel created is removed.
// It first checks every file still holds what keel last wrote and, if any
// does not, restores nothing and names them.
// Changes a command made (ByCommand) are left alone: keel never knew
// their content; Restore's caller says so.
func Restore(changes []FileChange) error {
	changes = keelsOwn(changes)
	if err := checkUnchanged(changes); err != nil {
		return err
	}
	for i := len(changes) - 1; i >= 0; i-- {
		c := changes[i]
		var err error
		switch {
		case !c.Existed:
			if err = removeAt(c.Path); os.IsNotExist(err) {
				err = nil
			}
		case len(c.Splices) > 0:
			err = unsplice(c)
		default:
			err = writeAt(c.Path, c.Before, fs.FileMode(c.Mode))
		}
		if err != nil {
			return fmt.Errorf("undo: %s: %w", c.Path, err)
		}
	}
	return nil
}

// checkUnchanged compares each file with what its last change left:
// the bytes, or for a large file's edit the hash.
func checkUnchanged(changes []FileChange) error {
	last := map[string]FileChange{}
	var order []string
	for _, c := range changes {
		if _, seen := last[c.Path]; !seen {
			order = append(order, c.Path)
		}
		last[c.Path] = c
	}
	var changed []string
	for _, p := range order {
		same, err := holds(last[p])
		switch {
		case os.IsNotExist(err):
			changed = append(changed, p+" (deleted)")
		case err != nil:
			return fmt.Errorf("undo: read %s: %w", p, err)
		case !same:
			changed = append(changed, p)
		}
	}
	if len(changed) > 0 {
		return fmt.Errorf("undo refused, nothing restored: %s %w", strings.Join(changed, ", "), ErrChangedSince)
	}
	return nil
}

// holds reports whether the file still holds what change c wrote.
func holds(c FileChange) (bool, error) {
	if len(c.Splices) > 0 {
		sum, err := hashFile(c.Path)
		return err == nil && hex.EncodeToString(sum) == c.AfterSHA256, err
	}
	cur, _, err := readAt(c.Path, 0)
	return err == nil && bytes.Equal(cur, c.After), err
}

// unsplice streams a large file back to its content before the edit and
// checks the result hashes to what it was.
func unsplice(c FileChange) error {
	r, err := openDir(filepath.Dir(c.Path))
	if err != nil {
		return err
	}
	defer r.Close()
	base := filepath.Base(c.Path)
	in, err := r.Open(base)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := "." + base + ".keel-" + randomSuffix()
	out, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fs.FileMode(c.Mode).Perm())
	if err != nil {
		return err
	}
	defer r.Remove(tmp) // fails harmlessly once renamed
	sum := sha256.New()
	err = applySplices(in, io.MultiWriter(out, sum), c.Splices, true)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if hex.EncodeToString(sum.Sum(nil)) != c.BeforeSHA256 {
		return errors.New("putting the replaced text back did not give the file as it was; nothing restored")
	}
	return r.Rename(tmp, base)
}

// keelsOwn drops the changes commands made.
func keelsOwn(changes []FileChange) []FileChange {
	out := make([]FileChange, 0, len(changes))
	for _, c := range changes {
		if !c.ByCommand {
			out = append(out, c)
		}
	}
	return out
}
