package tools

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

const (
	grepMaxShown   = 200   // match lines shown to the model
	grepMaxCollect = 20000 // match lines collected before giving up counting
	grepMaxLineLen = 500
	grepMaxContext = 10
)

type grepParams struct {
	Pattern    string `json:"pattern" description:"RE2 regular expression matched against each line (no lookaround or backreferences)."`
	Path       string `json:"path,omitempty" description:"File or directory to search (default: the workspace root)."`
	Include    string `json:"include,omitempty" description:"Only search files matching this glob, e.g. *.go or src/**/*.ts."`
	IgnoreCase bool   `json:"ignore_case,omitempty" description:"Match case-insensitively."`
	Context    int    `json:"context,omitempty" description:"Lines of context to show before and after each match (0-10)."`
}

const grepDesc = `Search file contents with a regular expression, skipping what .gitignore excludes and binary files. Returns path:line:text for matches (path-line-text for context lines). Use it to find definitions, call sites and strings before reading files; narrow with path and include when results are capped.`

func newGrep(ws *Workspace) Tool {
	return newTyped(NameGrep, grepDesc, ReadOnly, func(ctx context.Context, p grepParams) (Result, error) {
		return runGrep(ctx, ws, p, rgPath()), nil
	})
}

// rgPath is ripgrep's path, or "" when it is not installed.
func rgPath() string {
	p, err := exec.LookPath("rg")
	if err != nil {
		return ""
	}
	return p
}

// grepLine is one output line of a search: a match or a context line.
type grepLine struct {
	num   int
	text  string
	match bool
}

// grepFile holds one file's output lines in order.
type grepFile struct {
	path  string // absolute
	lines []grepLine
}

// grepQuery is a validated grep call, the same for both engines.
type grepQuery struct {
	re      *regexp.Regexp
	base    string // absolute file or directory
	include string
	context int
	params  grepParams
}

func runGrep(ctx context.Context, ws *Workspace, p grepParams, rg string) Result {
	q, msg := newGrepQuery(ctx, ws, p)
	if msg != "" {
		return errResult("%s", msg)
	}
	var files []grepFile
	var truncated bool
	var err error
	if strings.Contains(q.include, "/") {
		rg = "" // rg's --glob would override .gitignore, and its file types see names only
	}
	if rg != "" {
		files, truncated, err = searchRG(ctx, rg, q)
	} else {
		files, truncated, err = searchGo(ctx, ws, q)
	}
	if err != nil {
		return errResult("grep failed: %v", err)
	}
	return Result{Output: formatGrep(ws, q, files, truncated)}
}

func newGrepQuery(ctx context.Context, ws *Workspace, p grepParams) (grepQuery, string) {
	if p.Pattern == "" {
		return grepQuery{}, "pattern is required"
	}
	if p.Context < 0 || p.Context > grepMaxContext {
		return grepQuery{}, fmt.Sprintf("context must be between 0 and %d", grepMaxContext)
	}
	if p.Include != "" && !doublestar.ValidatePattern(p.Include) {
		return grepQuery{}, fmt.Sprintf("invalid include glob %q", p.Include)
	}
	expr := p.Pattern
	if p.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return grepQuery{}, fmt.Sprintf("invalid regular expression %q: %v (RE2 syntax; escape literal ( [ { . * + ? with a backslash)", p.Pattern, err)
	}
	base, err := resolveCall(ctx, ws, p.Path)
	if err != nil {
		return grepQuery{}, fmt.Sprintf("cannot resolve %q: %v", p.Path, err)
	}
	if _, err := os.Stat(base); err != nil {
		return grepQuery{}, fmt.Sprintf("path not found: %s (resolved to %s)", ws.Rel(base), base)
	}
	return grepQuery{re: re, base: base, include: p.Include, context: p.Context, params: p}, ""
}

func formatGrep(ws *Workspace, q grepQuery, files []grepFile, truncated bool) string {
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	total, nfiles := 0, 0
	for _, f := range files {
		if n := f.matches(); n > 0 {
			total += n
			nfiles++
		}
	}
	if total == 0 {
		return fmt.Sprintf("no matches for %q under %s\n", q.params.Pattern, ws.Rel(q.base))
	}
	var b strings.Builder
	shown := 0
	for _, f := range files {
		if shown >= grepMaxShown {
			break
		}
		shown += f.write(&b, ws.Rel(f.path), q.context > 0, grepMaxShown-shown)
	}
	b.WriteString(grepFooter(total, nfiles, shown, truncated))
	return b.String()
}

func grepFooter(total, nfiles, shown int, truncated bool) string {
	count := commas(total)
	if truncated {
		count = "more than " + count
	}
	if shown >= total && !truncated {
		return fmt.Sprintf("(%s matches in %s files)\n", count, commas(nfiles))
	}
	return fmt.Sprintf("(%s matches in %s files; showing the first %d: narrow with path or include)\n", count, commas(nfiles), shown)
}

func (f grepFile) matches() int {
	n := 0
	for _, l := range f.lines {
		if l.match {
			n++
		}
	}
	return n
}

// write prints up to budget matches of f (with their context) and returns
// how many matches it printed.
func (f grepFile) write(b *strings.Builder, rel string, sep bool, budget int) int {
	shown, prev := 0, -1
	for _, l := range f.lines {
		if l.match && shown == budget {
			break
		}
		if sep && (prev == -1 || l.num != prev+1) && b.Len() > 0 {
			b.WriteString("--\n")
		}
		mark := "-"
		if l.match {
			mark = ":"
			shown++
		}
		fmt.Fprintf(b, "%s%s%d%s%s\n", rel, mark, l.num, mark, capLine(l.text))
		prev = l.num
	}
	return shown
}

func capLine(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if len(s) > grepMaxLineLen {
		cut := grepMaxLineLen
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // do not split a rune
		}
		return s[:cut] + fmt.Sprintf("… [%s more bytes]", commas(len(s)-cut))
	}
	return s
}
