package tools

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// searchGo is grep without rg, with rg's defaults: .gitignore and .git
// honoured, hidden files searched, symlinks not followed, binary files
// (a NUL byte) skipped, and the search stopped once grepMaxCollect
// matching lines are found. Each file is read as a stream and Go's regexp
// runs on each line (grep_lines.go), so memory is bounded by a few
// buffers per worker, not by the size of a file; a directory is walked
// in lexical order while a worker per processor searches its files
// (grep_walk.go).
func searchGo(ctx context.Context, ws *Workspace, q grepQuery) ([]grepFile, bool, error) {
	fi, err := os.Stat(q.base)
	if err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &goSearch{q: q, cancel: cancel, block: blockPattern(q.re)}
	if !fi.IsDir() { // an explicit file is searched even if ignored, as rg does
		if root, err := openDir(filepath.Dir(q.base)); err == nil {
			if f, err := openRegular(root, filepath.Base(q.base)); err == nil {
				s.searchFile(f, q.base)
				f.Close()
			}
			root.Close()
		}
	} else if err := s.walk(ctx, ws.ignorerFor(q.base)); err != nil {
		return nil, false, err
	}
	truncated := s.matches.Load() >= grepMaxCollect
	if err := ctx.Err(); err != nil && !truncated {
		return nil, false, err
	}
	files := s.files
	if truncated {
		files = trimToCap(files, grepMaxCollect)
	}
	return files, truncated, nil
}

// goSearch is one search's shared state: its workers add the files with
// matches and count the matching lines.
type goSearch struct {
	q       grepQuery
	block   *regexp.Regexp     // the pattern in multi-line mode, nil when that changes its meaning (grep_lines.go)
	cancel  context.CancelFunc // stops the walk once grepMaxCollect lines are found
	matches atomic.Int64

	mu    sync.Mutex
	files []grepFile
}

// blockPattern is re in multi-line mode, to find candidate lines in a
// buffer of lines at once, or nil when the pattern asserts the text's
// start or end (\A, \z, (?-m)^), which mean a line's edge when each line
// is matched alone but the buffer's in a block.
func blockPattern(re *regexp.Regexp) *regexp.Regexp {
	expr := "(?m)" + re.String()
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	var textEdge func(*syntax.Regexp) bool
	textEdge = func(r *syntax.Regexp) bool {
		return r.Op == syntax.OpBeginText || r.Op == syntax.OpEndText || slices.ContainsFunc(r.Sub, textEdge)
	}
	if textEdge(parsed) {
		return nil
	}
	block, err := regexp.Compile(expr)
	if err != nil {
		return nil
	}
	return block
}

// found records a file's output lines, holding n matches.
func (s *goSearch) found(f grepFile, n int) {
	s.mu.Lock()
	s.files = append(s.files, f)
	s.mu.Unlock()
	if s.matches.Add(int64(n)) >= grepMaxCollect {
		s.cancel()
	}
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
