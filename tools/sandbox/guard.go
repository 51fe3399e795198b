package sandbox

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Guard checks after an approved command that the protected paths are as
// they were, and puts them back when not: a path that did not exist
// (AGENTS.md, .keel) cannot be bind-mounted, and where the helper has no
// mount namespace nothing is. The helper has killed every process the
// command started before the guard looks, so nothing changes them after.
type Guard struct {
	roots   []string
	entries map[string]entry // path -> what it was; absent roots are missing
}

// entry is one file, directory or symlink as the guard saw it.
type entry struct {
	mode fs.FileMode
	data []byte // a file's content or a symlink's target
}

// maxGuardBytes bounds what the guard keeps: protected trees are small
// (hooks, a config file, keel's own files); past this, larger files are
// not restored and the note says so.
const maxGuardBytes = 8 << 20

// NewGuard records paths as they are now.
func NewGuard(paths []string) *Guard {
	g := &Guard{roots: paths, entries: map[string]entry{}}
	budget := maxGuardBytes
	for _, root := range paths {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			e, ok := read(p, &budget)
			if ok {
				g.entries[p] = e
			}
			return nil
		})
	}
	return g
}

func read(p string, budget *int) (entry, bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return entry{}, false
	}
	e := entry{mode: fi.Mode()}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(p)
		e.data = []byte(t)
		return e, err == nil
	case fi.Mode().IsRegular():
		if int(fi.Size()) > *budget {
			return entry{}, false
		}
		b, err := os.ReadFile(p)
		*budget -= len(b)
		e.data = b
		return e, err == nil
	}
	return e, fi.IsDir()
}

// Restore removes what appeared below the protected paths and puts back
// what changed or went away; it returns the paths it had to fix.
func (g *Guard) Restore() []string {
	var fixed []string
	for _, root := range g.roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if _, known := g.entries[p]; !known {
				if os.RemoveAll(p) == nil {
					fixed = append(fixed, p)
				}
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
			}
			return nil
		})
	}
	paths := make([]string, 0, len(g.entries))
	for p := range g.entries {
		paths = append(paths, p)
	}
	sort.Strings(paths) // parents before children
	for _, p := range paths {
		if g.put(p, g.entries[p]) {
			fixed = append(fixed, p)
		}
	}
	sort.Strings(fixed)
	return fixed
}

// put makes p what e says, reporting whether it had to.
func (g *Guard) put(p string, e entry) bool {
	budget := maxGuardBytes
	if now, ok := read(p, &budget); ok && now.mode == e.mode && bytes.Equal(now.data, e.data) {
		return false
	}
	switch {
	case e.mode.IsDir():
		if fi, err := os.Lstat(p); err == nil && !fi.IsDir() {
			_ = os.Remove(p)
		}
		_ = os.MkdirAll(p, e.mode.Perm())
		_ = os.Chmod(p, e.mode.Perm())
	case e.mode&fs.ModeSymlink != 0:
		_ = os.RemoveAll(p)
		_ = os.Symlink(string(e.data), p)
	default:
		_ = os.RemoveAll(p) // a directory or a symlink in its place; write no file through a link
		_ = os.WriteFile(p, e.data, e.mode.Perm())
		_ = os.Chmod(p, e.mode.Perm())
	}
	return true
}
