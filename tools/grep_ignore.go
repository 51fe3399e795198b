package tools

import (
	"os"
	"path/filepath"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"
)

// gitRules is one .gitignore file compiled by go-gitignore.
type gitRules struct{ g *ignore.GitIgnore }

func newGitRules(content string) *gitRules {
	return &gitRules{g: ignore.CompileIgnoreLines(strings.Split(content, "\n")...)}
}

// matches reports whether the rules ignore p (relative to their directory,
// a directory's with a trailing slash).
func (r *gitRules) matches(p string) bool { return r.g.MatchesPath(p) }

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
