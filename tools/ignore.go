package tools

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ignoreCache answers "is this path ignored by git?" for one tree, loading
// each directory's .gitignore once. Negations in a deeper file cannot
// re-include what a shallower one ignored (a simplification of git's rules).
type ignoreCache struct {
	root     string
	mu       sync.Mutex
	dirs     map[string]*gitRules // nil value: no rules in that directory
	compiled map[string]*gitRules // by file content, for grep's walk
}

func newIgnoreCache(root string) *ignoreCache {
	return &ignoreCache{root: root, dirs: map[string]*gitRules{}, compiled: map[string]*gitRules{}}
}

func (c *ignoreCache) rules(dir string) *gitRules {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.dirs[dir]; ok {
		return g
	}
	var content string
	b, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err == nil {
		content = string(b)
	}
	if dir == c.root {
		if b, err := os.ReadFile(filepath.Join(dir, ".git", "info", "exclude")); err == nil {
			content += "\n" + string(b)
		}
	}
	var g *gitRules
	if content != "" || err == nil {
		g = newGitRules(content)
	}
	c.dirs[dir] = g
	return g
}

// ignored reports whether abs (under the cache's root) is ignored.
func (c *ignoreCache) ignored(abs string, isDir bool) bool {
	if abs == c.root || !strings.HasPrefix(abs, c.root+string(filepath.Separator)) {
		return false
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if g := c.rules(dir); g != nil {
			rel, _ := filepath.Rel(dir, abs)
			rel = filepath.ToSlash(rel)
			if isDir {
				rel += "/"
			}
			if g.matches(rel) {
				return true
			}
		}
		if dir == c.root || filepath.Dir(dir) == dir {
			return false
		}
	}
}

// ignorerFor returns the ignore rules for walking base: the workspace's for
// paths inside it, else rules rooted at base.
func (w *Workspace) ignorerFor(base string) *ignoreCache {
	if w.Inside(base) {
		return w.ign
	}
	return newIgnoreCache(base)
}

// walkFunc visits one entry; returning filepath.SkipDir skips a directory.
type walkFunc func(abs string, d fs.DirEntry) error

// walk visits the tree under base in lexical order, skipping .git
// directories and whatever .gitignore excludes. Symlinks are reported but
// not followed. Unreadable directories are skipped silently.
func (w *Workspace) walk(ctx context.Context, base string, fn walkFunc) error {
	ign := w.ignorerFor(base)
	return filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && p != base {
				return filepath.SkipDir
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if p != base {
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			if ign.ignored(p, d.IsDir()) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		return fn(p, d)
	})
}
