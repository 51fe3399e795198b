package tools

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// rule is one allow or deny entry: a tool, optionally narrowed by a
// pattern (a command pattern for run_command, a path glob otherwise).
type rule struct {
	raw     string
	tool    string
	pattern string   // "" matches every call of tool
	words   []string // run_command: the pattern's words, each a glob; a last "*" matches any rest
	path    string   // file tools: resolved path glob
	group   bool     // names a Group's tools: tool is a name that may hold *
}

// parseRule reads "tool" or "tool:pattern". "tool:" with nothing after
// the colon is an error: it reads as narrow but would match everything.
func (p *Policy) parseRule(s string) (rule, error) {
	ws := p.ws
	tool, pattern, hasColon := strings.Cut(strings.TrimSpace(s), ":")
	tool, pattern = strings.TrimSpace(tool), strings.TrimSpace(pattern)
	if p.inGroup(tool) {
		return groupRule(s, tool, hasColon)
	}
	if _, ok := p.classes[tool]; !ok {
		return rule{}, fmt.Errorf("permission rule %q: unknown tool %q", s, tool)
	}
	if hasColon && pattern == "" {
		return rule{}, fmt.Errorf("permission rule %q: the pattern after the colon is empty (write %q to mean every call)", s, tool)
	}
	r := rule{raw: s, tool: tool, pattern: pattern}
	if pattern == "" {
		return r, nil
	}
	if sc, ok := p.scopers[tool]; ok {
		return scopedRule(s, tool, pattern, sc)
	}
	if tool == NameRunCommand {
		r.words = strings.Fields(pattern)
		return r, nil
	}
	abs, err := ws.Resolve(pattern)
	if err != nil {
		return rule{}, fmt.Errorf("permission rule %q: %w", s, err)
	}
	if !doublestar.ValidatePattern(filepath.ToSlash(abs)) {
		return rule{}, fmt.Errorf("permission rule %q: invalid path pattern", s)
	}
	r.path = abs
	return r, nil
}

// matchesPath reports whether a file-tool rule covers the resolved path.
func (r rule) matchesPath(tool, abs string) bool {
	if r.tool != tool {
		return false
	}
	if r.pattern == "" {
		return true
	}
	ok, _ := doublestar.PathMatch(r.path, abs)
	return ok || strings.HasPrefix(abs, r.path+string(filepath.Separator)) // a directory covers its tree
}

// exactPath reports a rule naming exactly abs, the only kind that lets a
// tool write outside the workspace.
func (r rule) exactPath(tool, abs string) bool {
	return r.tool == tool && r.pattern != "" && r.path == abs
}

// matchesCommand reports whether a run_command rule covers a command
// given as its canonical words (program base name, git's global options
// off): each pattern word matches one word (* within it matches any
// characters), and a last "*" matches any number of words, none included.
func (r rule) matchesCommand(words []string) bool {
	if r.tool != NameRunCommand {
		return false
	}
	if r.words == nil {
		return true
	}
	return matchWords(r.words, words)
}

func matchWords(pattern, words []string) bool {
	for i, p := range pattern {
		if p == "*" && i == len(pattern)-1 {
			return true
		}
		if i >= len(words) {
			return false
		}
		if !wildMatch(p, words[i]) {
			return false
		}
	}
	return len(words) == len(pattern)
}

// wildMatch matches s against p, where * stands for any characters.
func wildMatch(p, s string) bool {
	star := strings.IndexByte(p, '*')
	if star < 0 {
		return p == s
	}
	if !strings.HasPrefix(s, p[:star]) {
		return false
	}
	s, p = s[star:], p[star+1:]
	for i := 0; i <= len(s); i++ {
		if wildMatch(p, s[i:]) {
			return true
		}
	}
	return false
}

// subcommandPrograms have subcommands, so a session grant covers
// "go test" rather than all of "go".
var subcommandPrograms = map[string]bool{
	"go": true, "git": true, "npm": true, "pnpm": true, "yarn": true, "bun": true, "deno": true,
	"cargo": true, "docker": true, "kubectl": true, "make": true, "gh": true, "pip": true,
	"uv": true, "poetry": true, "dotnet": true, "mvn": true, "gradle": true, "bazel": true,
	"terraform": true, "rustup": true, "brew": true, "apt": true, "apt-get": true, "npx": true,
	"python": true, "python3": true, "just": true, "task": true, "mix": true, "swift": true,
}

// grantPrefix is what "allow for this session" covers for a command: its
// program, plus its subcommand for programs that have them.
func grantPrefix(words []string) string {
	if len(words) == 0 {
		return ""
	}
	if subcommandPrograms[words[0]] && len(words) > 1 && !strings.HasPrefix(words[1], "-") {
		return words[0] + " " + words[1]
	}
	return words[0]
}

// coveredBy reports whether a command's canonical words start with a
// granted prefix.
func coveredBy(words []string, prefix string) bool {
	want := strings.Fields(prefix)
	if len(words) < len(want) {
		return false
	}
	for i := range want {
		if words[i] != want[i] {
			return false
		}
	}
	return true
}
