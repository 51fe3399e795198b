package tools

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/sync/errgroup"
)

// walk searches the tree at the search's base, depth first: each
// directory is opened as an os.Root below its parent's (the base's checked
// to be the base), so nothing opened lies outside and each open is one
// path component. The walker opens the files it finds and a worker per
// processor searches them. .git and what .gitignore excludes are skipped,
// symlinks and other non-regular files are not searched, unreadable
// directories are skipped (as rg does).
func (s *goSearch) walk(ctx context.Context, ign *ignoreCache) error {
	root, err := openDir(s.q.base)
	if err != nil {
		return err
	}
	defer root.Close()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	lvl := gitignoreLevel(root, "", ign.levelsAbove(s.q.base), ign)
	s.walkDir(gctx, g, root, "", lvl, ign)
	return g.Wait()
}

// walkDir searches the directory dir, at rel below the base, with the
// ignore rules lvl in force.
func (s *goSearch) walkDir(ctx context.Context, g *errgroup.Group, dir *os.Root, rel string, lvl *ignoreLevel, ign *ignoreCache) {
	ents, err := fs.ReadDir(dir.FS(), ".")
	if err != nil {
		return
	}
	for _, e := range ents {
		if ctx.Err() != nil {
			return
		}
		name := e.Name()
		child := path.Join(rel, name)
		switch {
		case name == ".git":
		case e.IsDir():
			if lvl.ignored(child, true) {
				continue
			}
			sub, err := dir.OpenRoot(name)
			if err != nil {
				continue
			}
			s.walkDir(ctx, g, sub, child, gitignoreLevel(sub, child, lvl, ign), ign)
			sub.Close()
		case e.Type().IsRegular() && !lvl.ignored(child, false) && s.q.includesRel(child):
			f, err := openRegular(dir, name)
			if err != nil {
				continue
			}
			g.Go(func() error {
				defer f.Close()
				s.searchFile(f, filepath.Join(s.q.base, filepath.FromSlash(child)))
				return nil
			})
		}
	}
}

// gitignoreLevel adds the rules of the .gitignore in root, the directory
// at dir below the base, if it has one, on top of lvl. The file is read
// fresh for each search.
func gitignoreLevel(root *os.Root, dir string, lvl *ignoreLevel, ign *ignoreCache) *ignoreLevel {
	f, err := openRegular(root, ".gitignore")
	if err != nil {
		return lvl
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxGitignore))
	if err != nil {
		return lvl
	}
	return &ignoreLevel{parent: lvl, g: ign.compile(string(data)), dir: dir}
}

// maxGitignore bounds what is read of one .gitignore file.
const maxGitignore = 1 << 20

// errNotRegular: a path listed as a file is something else now.
var errNotRegular = errors.New("not a regular file")

// openRegular opens rel below root for reading if it is a regular file.
// O_NONBLOCK keeps the open from waiting on a FIFO swapped in after the
// listing; fstat then turns it away.
func openRegular(root *os.Root, rel string) (*os.File, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, errNotRegular
	}
	return f, nil
}

// includesRel reports whether the include glob admits the file at rel
// (slash-separated, relative to the base). A glob without a slash matches
// the base name anywhere, as in rg and git.
func (q grepQuery) includesRel(rel string) bool {
	if q.include == "" {
		return true
	}
	if strings.Contains(q.include, "/") {
		return doublestar.MatchUnvalidated(q.include, rel)
	}
	return doublestar.MatchUnvalidated(q.include, path.Base(rel))
}
