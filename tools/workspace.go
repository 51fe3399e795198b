package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Workspace is the directory tree keel works in: the git root containing the
// working directory, or the working directory itself. It resolves every path
// the model gives, knows what is inside, and remembers which files keel read
// in this session (and their content then), for the read-first and
// stale-file rules of write_file and edit_file. It is safe for concurrent use.
type Workspace struct {
	root string // absolute, symlinks resolved
	home string // for ~ expansion; empty when unknown

	mu    sync.Mutex
	reads map[string]string // resolved path -> content version when last read or written
	ign   *ignoreCache

	client  ClientFiles // an editor's view of the files (keel acp); nil: the disk
	journal Journal     // records a file before it changes (SetJournal); nil: none
}

// NewWorkspace returns the workspace containing dir: the nearest ancestor
// holding .git, else dir itself.
func NewWorkspace(dir string) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	root := abs
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			root = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	home, _ := os.UserHomeDir()
	ws := &Workspace{root: root, home: home, reads: map[string]string{}}
	ws.ign = newIgnoreCache(root)
	return ws, nil
}

// Root is the workspace's absolute, symlink-free root directory.
func (w *Workspace) Root() string { return w.root }

// Resolve turns a path from the model into an absolute path with every
// existing symlink resolved: "~" is the home directory, relative paths are
// relative to the root, and ".." is cleaned. The path need not exist; its
// longest existing prefix is resolved and the rest appended.
func (w *Workspace) Resolve(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" || p == "." {
		return w.root, nil
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		if w.home == "" {
			return "", errors.New("cannot expand ~: home directory unknown")
		}
		p = filepath.Join(w.home, p[1:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.root, p)
	}
	return resolveExisting(filepath.Clean(p))
}

// resolveExisting resolves symlinks in the longest existing prefix of p.
func resolveExisting(p string) (string, error) {
	rest := []string{}
	cur := p
	for {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				r = filepath.Join(r, rest[i])
			}
			return r, nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscallENOTDIR) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = append(rest, filepath.Base(cur))
		cur = parent
	}
}

// Inside reports whether the resolved path abs is the root or under it.
func (w *Workspace) Inside(abs string) bool {
	return abs == w.root || strings.HasPrefix(abs, w.root+string(filepath.Separator))
}

// InGitDir reports whether abs is a .git directory or inside one, where
// keel never writes.
func InGitDir(abs string) bool {
	for _, part := range strings.Split(filepath.ToSlash(abs), "/") {
		if part == ".git" {
			return true
		}
	}
	return false
}

// Rel is abs as shown to the model: relative to the root when inside,
// absolute otherwise.
func (w *Workspace) Rel(abs string) string {
	if !w.Inside(abs) {
		return abs
	}
	r, err := filepath.Rel(w.root, abs)
	if err != nil {
		return abs
	}
	return r
}

// Version identifies content: a short SHA-256, so a read of changed content
// counts as new.
func Version(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:8])
}

// MarkRead records that keel showed (or wrote) abs with content version v.
func (w *Workspace) MarkRead(abs, v string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reads[abs] = v
}

// checkFresh returns "" when an existing file may be overwritten: keel read
// it in this session and it has not changed since. Otherwise it returns
// the message for the model.
func (w *Workspace) checkFresh(abs string, current []byte) string {
	return w.checkFreshVersion(abs, Version(current))
}

// checkFreshVersion is checkFresh for content of version now.
func (w *Workspace) checkFreshVersion(abs string, now string) string {
	w.mu.Lock()
	v, ok := w.reads[abs]
	w.mu.Unlock()
	rel := w.Rel(abs)
	switch {
	case !ok:
		return fmt.Sprintf("%s exists and keel has not read it in this session: read it first with read_file, then retry", rel)
	case v != now:
		return fmt.Sprintf("%s changed on disk since you read it: read it again with read_file, then retry", rel)
	}
	return ""
}
