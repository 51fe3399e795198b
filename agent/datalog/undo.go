package datalog

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/keel-dev/keel/internal/lazyre"
)

// ErrSecretNotStored is wrapped by TaskFileChanges' error when undo would
// need a content or path keel did not store because it held a secret.
var ErrSecretNotStored = errors.New("keel did not store it because it held a secret")

// SecretNotStoredError names the files undo cannot restore: their content
// before the task (or their path) held a secret, which keel stores only
// redacted.
type SecretNotStoredError struct {
	Paths []string // as stored: a redacted path shows its marks
	Names []string // the secrets' names, from the redaction marks
}

// Error says nothing was restored, why, and what to do instead.
func (e *SecretNotStoredError) Error() string {
	held := "a secret"
	if len(e.Names) > 0 {
		held = "a secret (" + strings.Join(e.Names, ", ") + ")"
	}
	return fmt.Sprintf("undo refused, nothing restored: keel did not store %s as it was before the task "+
		"because it held %s, so it cannot put it back: restore it from git or by hand",
		strings.Join(e.Paths, ", "), held)
}

// Unwrap lets errors.Is find ErrSecretNotStored.
func (e *SecretNotStoredError) Unwrap() error { return ErrSecretNotStored }

// readyForUndo makes the changes of one task, oldest first, safe to hand
// to an undo that checks each file still equals the After of its last
// change, then writes each Before in reverse order (or removes a file
// keel created). It never lets such an undo write a redaction mark:
//
//   - a redacted path, or a redacted Before of a path's first change in
//     the task (the content undo puts back), refuses with a
//     *SecretNotStoredError;
//   - a redacted Before of a later change is replaced by the first
//     change's Before: undo writes it only to overwrite it with that one,
//     so the end is the same and the mark is never written;
//   - a redacted After of a path's last change is replaced by the file's
//     current bytes when they hash to AfterSHA256 (the file is as keel
//     left it); otherwise it stays, and undo finds the file changed.
//
// read reads a file (os.ReadFile).
func readyForUndo(changes []FileChange, read func(string) ([]byte, error)) ([]FileChange, error) {
	first, last := map[string]int{}, map[string]int{}
	for i, c := range changes {
		if _, ok := first[c.Path]; !ok {
			first[c.Path] = i
		}
		last[c.Path] = i
	}
	if err := unrestorable(changes, first); err != nil {
		return nil, err
	}
	out := append([]FileChange(nil), changes...)
	for i := range out {
		c := &out[i]
		if f := changes[first[c.Path]]; i != first[c.Path] && c.BeforeRedacted && len(c.Splices) == 0 {
			c.Before, c.BeforeRedacted = f.Before, false
		}
		if i == last[c.Path] && c.AfterRedacted {
			if cur, err := read(c.Path); err == nil && sha256Hex(cur) == c.AfterSHA256 {
				c.After, c.AfterRedacted = cur, false
			}
		}
	}
	return out, nil
}

// unrestorable returns the error for the changes undo cannot revert, or nil.
func unrestorable(changes []FileChange, first map[string]int) error {
	e := &SecretNotStoredError{}
	names := map[string]bool{}
	seen := map[string]bool{}
	for i, c := range changes {
		bad := c.PathRedacted || c.SplicesRedacted || (i == first[c.Path] && c.Existed && c.BeforeRedacted)
		if !bad || seen[c.Path] {
			continue
		}
		seen[c.Path] = true
		e.Paths = append(e.Paths, c.Path)
		for _, src := range [][]byte{[]byte(c.Path), c.Before, c.Splices} {
			for _, m := range markRe().FindAllSubmatch(src, -1) {
				names[string(m[1])] = true
			}
		}
	}
	if len(e.Paths) == 0 {
		return nil
	}
	for n := range names {
		e.Names = append(e.Names, n)
	}
	sort.Strings(e.Names)
	return e
}

// markRe finds the redaction marks redactor writes (see markName).
var markRe = lazyre.New(`\[REDACTED:([A-Za-z0-9_.\-]+)\]`)
