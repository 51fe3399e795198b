package tools

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

const globMax = 200

type globParams struct {
	Pattern string `json:"pattern" description:"Doublestar pattern matched against paths relative to path, e.g. **/*.go, cmd/*/main.go, **/*_test.{go,py}."`
	Path    string `json:"path,omitempty" description:"Directory to search under (default: the workspace root)."`
}

const globDesc = `Find files by name pattern (doublestar: ** crosses directories), newest first, skipping what .gitignore excludes. Use it to locate files when you know part of a name; use grep to search file contents.`

func newGlob(ws *Workspace) Tool {
	return newTyped(NameGlob, globDesc, ReadOnly, func(ctx context.Context, p globParams) (Result, error) {
		return runGlob(ctx, ws, p), nil
	})
}

type globHit struct {
	rel string
	mod time.Time
}

func runGlob(ctx context.Context, ws *Workspace, p globParams) Result {
	pattern := strings.TrimSpace(p.Pattern)
	base := p.Path
	if pattern == "" {
		return errResult("pattern is required, e.g. **/*.go")
	}
	if filepath.IsAbs(pattern) || strings.HasPrefix(pattern, "~") {
		// An absolute pattern carries its own base directory.
		b, rest := doublestar.SplitPattern(filepath.ToSlash(pattern))
		base, pattern = b, rest
	}
	if !doublestar.ValidatePattern(pattern) {
		return errResult("invalid glob pattern %q (check brackets and braces)", p.Pattern)
	}
	abs, err := ws.Resolve(base)
	if err != nil {
		return errResult("cannot resolve %q: %v", base, err)
	}
	hits, err := globWalk(ctx, ws, abs, pattern)
	if err != nil {
		return errResult("glob under %s: %v", ws.Rel(abs), err)
	}
	return Result{Output: formatGlob(ws.Rel(abs), p.Pattern, hits)}
}

func globWalk(ctx context.Context, ws *Workspace, base, pattern string) ([]globHit, error) {
	var hits []globHit
	err := ws.walk(ctx, base, func(p string, d fs.DirEntry) error {
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(base, p)
		if doublestar.MatchUnvalidated(pattern, filepath.ToSlash(rel)) {
			var mod time.Time
			if fi, err := d.Info(); err == nil {
				mod = fi.ModTime()
			}
			hits = append(hits, globHit{rel: filepath.Join(ws.Rel(base), rel), mod: mod})
		}
		return nil
	})
	sort.SliceStable(hits, func(i, j int) bool {
		if !hits[i].mod.Equal(hits[j].mod) {
			return hits[i].mod.After(hits[j].mod)
		}
		return hits[i].rel < hits[j].rel
	})
	return hits, err
}

func formatGlob(base, pattern string, hits []globHit) string {
	if len(hits) == 0 {
		return fmt.Sprintf("no files match %q under %s (files ignored by .gitignore are skipped)\n", pattern, base)
	}
	var b strings.Builder
	for _, h := range hits[:min(len(hits), globMax)] {
		b.WriteString(h.rel + "\n")
	}
	if n := len(hits) - globMax; n > 0 {
		fmt.Fprintf(&b, "(%s files match; %s more not shown: narrow the pattern or path)\n", commas(len(hits)), commas(n))
	} else {
		fmt.Fprintf(&b, "(%d files, newest first)\n", len(hits))
	}
	return b.String()
}
