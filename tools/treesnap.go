package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/keel-dev/keel/tools/shell"
)

// Files a command changed. Before and after each run_command keel lists
// the workspace's files (what .gitignore keeps, .git excluded) with their
// size, modification time and mode; what differs is reported as changes
// made by the command, for discipline (they reset the repeat and streak
// counts and call for a check) and the datalog. The content before is not
// known, so undo cannot restore them; it says so.

// Past these the listing gives up (a huge tree): the command's changes
// are then unknown, as before.
const (
	snapMaxFiles = 50000
	snapMaxTime  = 250 * time.Millisecond
)

// stamp is what tells two versions of a file apart without reading it.
type stamp struct {
	size  int64
	mtime int64
	mode  fs.FileMode
}

// snapshot lists the workspace's files; ok is false when it gave up.
func (w *Workspace) snapshot(ctx context.Context) (map[string]stamp, bool) {
	files := make(map[string]stamp, 256)
	deadline := time.Now().Add(snapMaxTime)
	errTooBig := errors.New("too big")
	err := w.walk(ctx, w.root, func(p string, d fs.DirEntry) error {
		if d.IsDir() {
			return nil
		}
		if len(files) >= snapMaxFiles || len(files)%256 == 0 && time.Now().After(deadline) {
			return errTooBig
		}
		fi, err := d.Info()
		if err != nil {
			return nil // gone meanwhile
		}
		files[p] = stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
		return nil
	})
	return files, err == nil
}

// commandChanges are the differences between two listings, sorted.
func commandChanges(before, after map[string]stamp) []FileChange {
	var out []FileChange
	for p, a := range after {
		if b, ok := before[p]; !ok || b != a {
			out = append(out, FileChange{Path: p, Existed: ok, ByCommand: true})
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, FileChange{Path: p, Existed: true, Deleted: true, ByCommand: true})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// changesNote is the line a command's output gains naming what it
// changed, so the model knows too.
func (w *Workspace) changesNote(changes []FileChange) string {
	if len(changes) == 0 {
		return ""
	}
	var names []string
	for i, c := range changes {
		if i == 10 {
			names = append(names, fmt.Sprintf("and %d more", len(changes)-10))
			break
		}
		what := "modified"
		switch {
		case c.Deleted:
			what = "deleted"
		case !c.Existed:
			what = "created"
		}
		names = append(names, w.Rel(c.Path)+" ("+what+")")
	}
	return "[files changed by this command: " + strings.Join(names, ", ") + "]\n"
}

// JudgedChange reports a change discipline should judge as an edit: not
// a binary file a build wrote, nor an empty file (touch, a lock or
// marker file); a deletion counts.
func JudgedChange(c FileChange) bool {
	if c.Deleted {
		return true
	}
	f, err := os.Open(c.Path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 8192)
	n, _ := f.Read(head)
	return n > 0 && !looksBinary(head[:n])
}

// readsOnly reports a command keel can prove changes no file: it parses,
// has nothing keel cannot check, every call is a known read-only one and
// nothing is redirected into a file. Such a command needs no listing.
func readsOnly(command string) bool {
	s, err := shell.Analyse(command)
	if err != nil || len(s.Problems) > 0 || len(s.Writes) > 0 {
		return false
	}
	for _, call := range s.Calls {
		if e := shell.Classify(call); !e.ReadOnly || len(e.Writes) > 0 || len(e.FlagWrites) > 0 {
			return false
		}
	}
	return true
}
