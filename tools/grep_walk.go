package tools

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"
)

// grepWalk is one parallel search of a directory tree: a shared stack of
// directories to list and files to search, and GOMAXPROCS workers that
// each list, filter and search, so the walk and the searching overlap and
// no worker waits on a walker. Files are read through fsys, opened at the
// base: a swapped symlink cannot lead out of it.
type grepWalk struct {
	ctx     context.Context
	cancel  context.CancelFunc
	fsys    grepFS
	q       grepQuery
	m       *lineMatcher
	ign     *ignoreCache // compiles .gitignore files (cached by content)
	matches atomic.Int64

	mu     sync.Mutex
	cond   *sync.Cond
	stack  []walkItem
	active int // items being worked on
}

// walkItem is a directory to list or a file to search, relative to base.
type walkItem struct {
	rel string
	dir bool
	lvl *ignoreLevel // the .gitignore rules in force
}

// grepWorker is one worker's reusable buffers and results.
type grepWorker struct {
	buf   []byte
	dirs  []byte
	ents  []grepEntry
	sc    matchScratch
	files []grepFile
}

const maxKeptBuf = 16 << 20 // a worker drops a read buffer larger than this

// run searches the tree and returns the files with matches.
func (w *grepWalk) run(root *ignoreLevel, workers int) []grepFile {
	w.cond = sync.NewCond(&w.mu)
	w.stack = append(w.stack, walkItem{dir: true, lvl: root})
	results := make([]*grepWorker, workers)
	var wg sync.WaitGroup
	for i := range results {
		results[i] = &grepWorker{}
		wg.Go(func() { w.work(results[i]) })
	}
	wg.Wait()
	var files []grepFile
	for _, r := range results {
		files = append(files, r.files...)
	}
	return files
}

func (w *grepWalk) work(gw *grepWorker) {
	for {
		it, ok := w.pop()
		if !ok {
			return
		}
		if it.dir {
			w.list(gw, it)
		} else {
			w.search(gw, it.rel)
		}
		w.done()
	}
}

// pop takes the next item, waiting while others may still add some; false
// when the walk is over or cancelled.
func (w *grepWalk) pop() (walkItem, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.stack) == 0 && w.active > 0 && w.ctx.Err() == nil {
		w.cond.Wait()
	}
	if len(w.stack) == 0 || w.ctx.Err() != nil {
		w.cond.Broadcast()
		return walkItem{}, false
	}
	it := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	w.active++
	return it, true
}

func (w *grepWalk) push(items []walkItem) {
	if len(items) == 0 {
		return
	}
	w.mu.Lock()
	w.stack = append(w.stack, items...)
	w.mu.Unlock()
	w.cond.Broadcast()
}

func (w *grepWalk) done() {
	w.mu.Lock()
	w.active--
	last := w.active == 0 && len(w.stack) == 0
	w.mu.Unlock()
	if last {
		w.cond.Broadcast()
	}
}

// list reads one directory and queues what in it is to be searched:
// .git and what .gitignore excludes are skipped, symlinks not followed.
func (w *grepWalk) list(gw *grepWorker, it walkItem) {
	ents, dirs, err := w.fsys.readDir(it.rel, gw.ents[:0], gw.dirs)
	gw.ents, gw.dirs = ents, dirs
	if err != nil {
		return // unreadable directories are skipped, as rg does
	}
	lvl := it.lvl
	for _, e := range ents {
		if e.name == ".gitignore" && e.kind == kindFile {
			lvl = w.gitignoreLevel(it, lvl)
			break
		}
	}
	items := make([]walkItem, 0, len(ents))
	for _, e := range ents {
		if e.name == ".git" || e.kind == kindOther {
			continue
		}
		rel := joinRel(it.rel, e.name)
		dir := e.kind == kindDir
		if lvl.ignored(rel, dir) || !dir && !w.q.includesRel(rel) {
			continue
		}
		items = append(items, walkItem{rel: rel, dir: dir, lvl: lvl})
	}
	w.push(items)
}

// gitignoreLevel adds the rules of it's .gitignore on top of lvl.
func (w *grepWalk) gitignoreLevel(it walkItem, lvl *ignoreLevel) *ignoreLevel {
	data, err := w.fsys.readFile(joinRel(it.rel, ".gitignore"), make([]byte, 0, 4<<10))
	if err != nil {
		return lvl
	}
	return &ignoreLevel{parent: lvl, g: w.ign.compile(string(data)), dir: it.rel}
}

// search reads one file and keeps its matching lines. Files with a NUL
// byte are binary and skipped.
func (w *grepWalk) search(gw *grepWorker, rel string) {
	data, err := w.fsys.readFile(rel, gw.buf[:0])
	if cap(data) <= maxKeptBuf {
		gw.buf = data[:0]
	}
	if err != nil || bytes.IndexByte(data, 0) >= 0 {
		return
	}
	hits := w.m.lines(data, &gw.sc, grepMaxCollect)
	if len(hits) == 0 {
		return
	}
	gw.files = append(gw.files, grepFile{
		path:  filepath.Join(w.q.base, filepath.FromSlash(rel)),
		lines: withContext(data, hits, w.q.context),
	})
	if w.matches.Add(int64(len(hits))) >= grepMaxCollect {
		w.cancel()
	}
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
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
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	if ext, ok := strings.CutPrefix(q.include, "*"); ok && !strings.ContainsAny(ext, `*?[]{}\`) {
		return strings.HasSuffix(name, ext)
	}
	return doublestar.MatchUnvalidated(q.include, name)
}
