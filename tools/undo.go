package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// RecordedChange is a file change as the datalog kept it, for undo.
type RecordedChange struct {
	FileChange
	ID int64 // the datalog's row
	// Pending: journaled before the write, and keel was stopped before it
	// knew whether the write happened.
	Pending bool
	// Withheld says why this change's content before (or its path) cannot
	// be written back, e.g. it held a secret keel stored only redacted;
	// "" when it can.
	Withheld string
	// PathWithheld: the stored path is not the real one (it held a
	// secret), so undo cannot find the file; Withheld says so.
	PathWithheld bool
}

// FileOutcome is what undo did with one file.
type FileOutcome struct {
	Path string
	IDs  []int64 // the changes of the file it covers
	// Done: the file is as it was before the first change, restored now
	// or already (Already: the write never happened, or an interrupted
	// undo had restored it).
	Done, Already bool
	// Left says why undo left the file as it is ("" when Done). Retry:
	// the changes stay to undo, for a later undo to try again (the file
	// may come back to a state keel knows, an I/O error may pass).
	Left  string
	Retry bool
	// RemovedDirs: directories keel had created for the file, removed
	// with it (those still holding something stay).
	RemovedDirs []string
}

// Undo brings each file the changes touched back to its content before
// the first of them. Changes are in the order they were made. Each file
// is judged on its own, by comparing it with every state the changes
// left it in (their hashes): in the last state it is restored; in an
// earlier one (an undo was interrupted, a journaled write never happened)
// it is restored from there; as it was before, nothing is written; in no
// known state (changed since keel wrote it), it is left alone. Every step
// is one atomic write, so an undo killed half-way leaves each file in one
// of those states and the next undo finishes the job.
func Undo(changes []RecordedChange) []FileOutcome {
	var order []string
	byPath := map[string][]RecordedChange{}
	for _, c := range changes {
		if _, ok := byPath[c.Path]; !ok {
			order = append(order, c.Path)
		}
		byPath[c.Path] = append(byPath[c.Path], c)
	}
	out := make([]FileOutcome, 0, len(order))
	for _, p := range order {
		out = append(out, undoFile(p, byPath[p]))
	}
	removeCreatedDirs(out, byPath)
	return out
}

// removeCreatedDirs removes the directories keel created for the files
// undo took back to not existing, innermost first across all files (a
// directory two new files shared goes once both are gone), and names
// them on the outcome of the file whose change created them.
func removeCreatedDirs(out []FileOutcome, byPath map[string][]RecordedChange) {
	owner := map[string]int{}
	var dirs []string
	for i, o := range out {
		if !o.Done {
			continue
		}
		for _, c := range byPath[o.Path] {
			for _, d := range c.NewDirs {
				if _, seen := owner[d]; !seen {
					owner[d] = i
					dirs = append(dirs, d)
				}
			}
		}
	}
	// Outermost first, as removeDirs takes them (it removes the deepest
	// first: a parent is empty only once its children are gone).
	depth := func(d string) int { return strings.Count(d, string(filepath.Separator)) }
	slices.SortStableFunc(dirs, func(a, b string) int { return depth(a) - depth(b) })
	for _, d := range removeDirs(dirs) {
		i := owner[d]
		out[i].RemovedDirs = append(out[i].RemovedDirs, d)
	}
}

// undoFile restores one file from its changes.
func undoFile(path string, all []RecordedChange) FileOutcome {
	o := FileOutcome{Path: path}
	var chain []RecordedChange
	byCommand := false
	for _, c := range all {
		o.IDs = append(o.IDs, c.ID)
		if c.ByCommand {
			byCommand = true
			continue
		}
		chain = append(chain, c)
	}
	switch {
	case len(chain) == 0:
		o.Left = "a command changed it and keel never kept its content: restore it with git"
		return o
	case chain[0].PathWithheld:
		o.Left = chain[0].Withheld
		return o
	}
	k, moved, err := findState(path, chain)
	if err != nil {
		o.Left, o.Retry = "keel could not read it: "+err.Error(), true
		return o
	}
	if k < 0 {
		o.Left, o.Retry = "it changed since keel wrote it", true
		if byCommand {
			o.Left, o.Retry = "a command changed it after keel did, and keel never kept that content: restore it with git", false
		}
		return o
	}
	if k == 0 {
		o.Done, o.Already = true, !moved
		return o
	}
	if why, retry := rewind(path, chain, k); why != "" {
		o.Left, o.Retry = why, retry
		return o
	}
	o.Done = true
	return o
}

// absent is the state of a file that does not exist.
const absent = "absent"

// beforeState and afterState are a change's states: the file's hash, or
// absent, or "" when unknown (a pending large edit's result).
func beforeState(c RecordedChange) string {
	switch {
	case !c.Existed:
		return absent
	case c.BeforeSHA256 != "":
		return c.BeforeSHA256
	case len(c.Splices) == 0:
		return sha256Hex(c.Before) // a row older than the hashes
	}
	return ""
}

func afterState(c RecordedChange) string {
	switch {
	case c.AfterSHA256 != "":
		return c.AfterSHA256
	case c.After != nil:
		return sha256Hex(c.After)
	}
	return ""
}

// findState returns k such that the file is now in the state the first
// k changes of chain left it in (0: as before them all), preferring the
// latest; -1 when it is in none. A pending large edit whose result is
// unknown is tried by putting its replaced text back, which checks the
// result against the state before it (moved: that was done).
func findState(path string, chain []RecordedChange) (k int, moved bool, err error) {
	cur, err := diskState(path)
	if err != nil {
		return 0, false, err
	}
	for k := len(chain); k >= 0; k-- {
		var s string
		if k == 0 {
			s = beforeState(chain[0])
		} else {
			s = afterState(chain[k-1])
		}
		if s != "" && s == cur {
			return k, false, nil
		}
	}
	last := chain[len(chain)-1]
	if last.Pending && afterState(last) == "" && len(last.Splices) > 0 && last.Withheld == "" {
		if unsplice(last.FileChange) == nil {
			return len(chain) - 1, true, nil
		}
	}
	return -1, false, nil
}

// diskState is the file's hash now, or absent.
func diskState(path string) (string, error) {
	sum, err := hashFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return absent, nil
	}
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(sum), nil
}

// rewind takes the file from the state of chain's first k changes back to
// before them: a run of whole-file changes in one write of the run's
// first content, a large edit by putting its replaced text back. It
// returns why it stopped ("" when done).
func rewind(path string, chain []RecordedChange, k int) (why string, retry bool) {
	for j := k; j >= 1; {
		c := chain[j-1]
		if len(c.Splices) > 0 {
			if c.Withheld != "" {
				return c.Withheld, false
			}
			if err := unsplice(c.FileChange); err != nil {
				return "putting the replaced text back failed: " + err.Error(), true
			}
			j--
			continue
		}
		i := j
		for i > 1 && len(chain[i-2].Splices) == 0 {
			i--
		}
		first := chain[i-1]
		if first.Withheld != "" {
			return first.Withheld, false
		}
		if err := putBack(first); err != nil {
			return "writing it back failed: " + err.Error(), true
		}
		j = i - 1
	}
	return "", false
}

// putBack writes a whole-file change's content before, or removes the
// file it created.
func putBack(c RecordedChange) error {
	if !c.Existed {
		if err := removeAt(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return writeAt(c.Path, c.Before, fs.FileMode(c.Mode))
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
	tmp := tempName(base)
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
		return errors.New("the result is not the file as it was; nothing restored")
	}
	return r.Rename(tmp, base)
}

// String is one line for a report, e.g. "a.go: it changed since keel
// wrote it".
func (o FileOutcome) String() string {
	if o.Done {
		return o.Path
	}
	return fmt.Sprintf("%s (%s)", o.Path, o.Left)
}
