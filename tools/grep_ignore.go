package tools

import (
	"os"
	"path/filepath"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"
)

// gitRules is one .gitignore file compiled, with a quick rejection in
// front of go-gitignore, which runs one regexp per line for every path:
// each line that ignores (is not a negation) needs a literal piece of it
// in the path, so a path holding none of those pieces is not ignored and
// no regexp runs. The answer is always go-gitignore's.
type gitRules struct {
	g      *ignore.GitIgnore
	pieces []string // one required piece per ignoring line
	always bool     // some ignoring line has no usable piece: always ask g
}

func newGitRules(content string) *gitRules {
	lines := strings.Split(content, "\n")
	r := &gitRules{g: ignore.CompileIgnoreLines(lines...)}
	for _, line := range lines {
		piece, ok := ignorePiece(line)
		switch {
		case !ok:
			r.always = true
		case piece != "":
			r.pieces = append(r.pieces, piece)
		}
	}
	return r
}

// ignorePiece is the longest literal run of an ignoring line, which every
// path the line matches contains, or "" for a line that ignores nothing
// (blank, comment, negation). ok is false when there is none to be sure
// of: a line with only wildcards, or with characters go-gitignore passes
// to its regexp unescaped.
func ignorePiece(line string) (string, bool) {
	line = strings.TrimRight(line, "\r")
	if strings.HasPrefix(line, "#") {
		return "", true
	}
	line = strings.Trim(line, " ")
	if line == "" || line[0] == '!' {
		return "", true
	}
	if strings.ContainsAny(line, `[]{}()+|^$\?`) {
		return "", false
	}
	best := ""
	for _, p := range strings.FieldsFunc(line, func(r rune) bool { return r == '*' || r == '/' }) {
		if len(p) > len(best) {
			best = p
		}
	}
	return best, best != ""
}

// matches reports whether the rules ignore p (relative to their directory,
// a directory's with a trailing slash).
func (r *gitRules) matches(p string) bool {
	if !r.always && !containsAny(p, r.pieces) {
		return false
	}
	return r.g.MatchesPath(p)
}

func containsAny(s string, pieces []string) bool {
	for _, p := range pieces {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// compile returns the rules of a .gitignore file's content, compiling each
// distinct content once (go-gitignore builds several regexps a line).
func (c *ignoreCache) compile(content string) *gitRules {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.compiled[content]; ok {
		return g
	}
	g := newGitRules(content)
	if len(c.compiled) < 1024 {
		c.compiled[content] = g
	}
	return g
}

// ignoreLevel is one .gitignore file's rules in grep's walk, linked to the
// levels above it. dir is its directory relative to the search's base; up,
// for a file above the base, is the path from its directory to the base.
type ignoreLevel struct {
	parent *ignoreLevel
	g      *gitRules
	dir    string
	up     string
}

// ignored reports whether any level ignores rel (slash-separated, relative
// to the base). Like ignoreCache, a deeper negation cannot re-include.
func (l *ignoreLevel) ignored(rel string, isDir bool) bool {
	for ; l != nil; l = l.parent {
		p := rel
		switch {
		case l.up != "":
			p = l.up + "/" + rel
		case l.dir != "":
			p = rel[len(l.dir)+1:]
		}
		if isDir {
			p += "/"
		}
		if l.g.matches(p) {
			return true
		}
	}
	return false
}

// levelsAbove returns the rules in force at base before its own
// .gitignore: .git/info/exclude of the ignore root and the .gitignore
// files of the directories from that root down to base's parent. They are
// read fresh for each search.
func (c *ignoreCache) levelsAbove(base string) *ignoreLevel {
	var lvl *ignoreLevel
	add := func(file, dir string) {
		data, err := os.ReadFile(file)
		if err != nil {
			return
		}
		up, _ := filepath.Rel(dir, base)
		if up == "." {
			up = ""
		}
		lvl = &ignoreLevel{parent: lvl, g: c.compile(string(data)), up: filepath.ToSlash(up)}
	}
	add(filepath.Join(c.root, ".git", "info", "exclude"), c.root)
	for dir := c.root; dir != base && strings.HasPrefix(base, dir); {
		add(filepath.Join(dir, ".gitignore"), dir)
		rest, _ := filepath.Rel(dir, base)
		first, _, _ := strings.Cut(filepath.ToSlash(rest), "/")
		dir = filepath.Join(dir, first)
	}
	return lvl
}
