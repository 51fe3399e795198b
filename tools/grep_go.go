package tools

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// searchGo is grep without rg: a walk feeding a pool of searchers, one
// file at a time, with rg's defaults (binary files skipped, .gitignore and
// .git honoured, symlinks not followed).
func searchGo(ctx context.Context, ws *Workspace, q grepQuery) ([]grepFile, bool, error) {
	fi, err := os.Stat(q.base)
	if err != nil {
		return nil, false, err
	}
	if !fi.IsDir() { // an explicit file is searched even if ignored, as rg does
		f, _ := searchFile(nil, q.base, q, prefilter(q))
		if len(f.lines) == 0 {
			return nil, false, nil
		}
		return []grepFile{f}, false, nil
	}
	return searchTree(ctx, ws, q)
}

func searchTree(ctx context.Context, ws *Workspace, q grepQuery) ([]grepFile, bool, error) {
	root, err := openDir(q.base) // files are read through it: a swapped symlink cannot lead out
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	paths := make(chan string, 256)
	var (
		mu      sync.Mutex
		files   []grepFile
		matches atomic.Int64
		wg      sync.WaitGroup
	)
	pre := prefilter(q)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range paths {
				f, n := searchFile(root, p, q, pre)
				if n == 0 {
					continue
				}
				mu.Lock()
				files = append(files, f)
				mu.Unlock()
				if matches.Add(int64(n)) >= grepMaxCollect {
					cancel()
				}
			}
		})
	}
	werr := ws.walk(ctx, q.base, func(p string, d fs.DirEntry) error {
		if d.Type().IsRegular() && q.includes(p) {
			select {
			case paths <- p:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	close(paths)
	wg.Wait()
	truncated := matches.Load() >= grepMaxCollect
	if werr != nil && !truncated {
		return nil, false, werr
	}
	return files, truncated, nil
}

// prefilter is a whole-file version of the pattern that rejects most files
// without splitting them into lines. It is nil when it could reject a file
// that has a matching line (\A and \z mean line edges per line).
func prefilter(q grepQuery) *regexp.Regexp {
	expr := q.re.String()
	if strings.Contains(expr, `\A`) || strings.Contains(expr, `\z`) {
		return nil
	}
	re, err := regexp.Compile("(?m)" + expr)
	if err != nil {
		return nil
	}
	return re
}

// searchFile returns p's matching lines with context, and the match count.
// root, when set, is the search's base, which p is read through.
func searchFile(root *os.Root, p string, q grepQuery, pre *regexp.Regexp) (grepFile, int) {
	f := grepFile{path: p}
	data, err := readBelow(root, q.base, p)
	if err != nil || bytes.IndexByte(data, 0) >= 0 {
		return f, 0
	}
	if pre != nil && !pre.Match(data) {
		return f, 0
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	hit := make([]bool, len(lines))
	n := 0
	for i, l := range lines {
		if q.re.Match(bytes.TrimSuffix(l, []byte("\n"))) {
			hit[i] = true
			n++
		}
	}
	if n == 0 {
		return f, 0
	}
	f.lines = withContext(lines, hit, q.context)
	return f, n
}

// withContext keeps matching lines and the c lines around each.
func withContext(lines [][]byte, hit []bool, c int) []grepLine {
	keep := make([]bool, len(lines))
	for i, h := range hit {
		if h {
			for j := max(0, i-c); j <= min(len(lines)-1, i+c); j++ {
				keep[j] = true
			}
		}
	}
	var out []grepLine
	for i, k := range keep {
		if k {
			out = append(out, grepLine{num: i + 1, text: string(lines[i]), match: hit[i]})
		}
	}
	return out
}
