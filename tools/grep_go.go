package tools

import (
	"bytes"
	"context"
	"os"
	"sort"

	"runtime"
)

// searchGo is grep without rg, with rg's defaults: binary files (a NUL
// byte) skipped, .gitignore and .git honoured, symlinks not followed, and
// the search stopped once grepMaxCollect matching lines are found. A
// directory is searched by a parallel walk (grepWalk); each file is
// matched whole (lineMatcher): literals the pattern requires are looked
// for first, and the regexp runs only on the lines that hold one.
func searchGo(ctx context.Context, ws *Workspace, q grepQuery) ([]grepFile, bool, error) {
	fi, err := os.Stat(q.base)
	if err != nil {
		return nil, false, err
	}
	m := newLineMatcher(q.re)
	if !fi.IsDir() { // an explicit file is searched even if ignored, as rg does
		return searchOne(q, m)
	}
	fsys, err := openGrepFS(q.base) // files are read through it: a swapped symlink cannot lead out
	if err != nil {
		return nil, false, err
	}
	defer fsys.close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ign := ws.ignorerFor(q.base)
	w := &grepWalk{ctx: ctx, cancel: cancel, fsys: fsys, q: q, m: m, ign: ign}
	files := w.run(ign.levelsAbove(q.base), runtime.GOMAXPROCS(0))
	truncated := w.matches.Load() >= grepMaxCollect
	if err := ctx.Err(); err != nil && !truncated {
		return nil, false, err
	}
	if truncated {
		files = trimToCap(files, grepMaxCollect)
	}
	return files, truncated, nil
}

// trimToCap keeps the first limit matches in path order, as rg's reader
// stops at the limit: a capped search reports "more than" the limit.
func trimToCap(files []grepFile, limit int) []grepFile {
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	for i := range files {
		n := files[i].matches()
		if n < limit {
			limit -= n
			continue
		}
		lines := files[i].lines
		for k, l := range lines {
			if l.match {
				if limit == 0 {
					lines = lines[:k]
					break
				}
				limit--
			}
		}
		files[i].lines = lines
		return files[:i+1]
	}
	return files
}

// searchOne searches the single file q.base, read through its checked
// directory.
func searchOne(q grepQuery, m *lineMatcher) ([]grepFile, bool, error) {
	data, _, err := readAt(q.base, 0)
	if err != nil || bytes.IndexByte(data, 0) >= 0 {
		return nil, false, nil
	}
	var sc matchScratch
	hits := m.lines(data, &sc, grepMaxCollect)
	if len(hits) == 0 {
		return nil, false, nil
	}
	f := grepFile{path: q.base, lines: withContext(data, hits, q.context)}
	return []grepFile{f}, len(hits) >= grepMaxCollect, nil
}
