package tools

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// rule is one allow or deny entry: a tool, optionally narrowed by a
// pattern (a command pattern for run_command, a path glob otherwise).
type rule struct {
	raw     string
	tool    string
	pattern string         // "" matches every call of tool
	cmd     *regexp.Regexp // run_command patterns
	path    string         // file tools: resolved path glob
}

// parseRule reads "tool" or "tool:pattern".
func parseRule(ws *Workspace, s string) (rule, error) {
	tool, pattern, _ := strings.Cut(strings.TrimSpace(s), ":")
	tool, pattern = strings.TrimSpace(tool), strings.TrimSpace(pattern)
	if _, ok := ClassOf(tool); !ok {
		return rule{}, fmt.Errorf("permission rule %q: unknown tool %q", s, tool)
	}
	r := rule{raw: s, tool: tool, pattern: pattern}
	if pattern == "" {
		return r, nil
	}
	if tool == NameRunCommand {
		r.cmd = commandPattern(pattern)
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

// commandPattern compiles "go test *": * matches anything, and a trailing
// " *" also matches no arguments at all ("go test").
func commandPattern(p string) *regexp.Regexp {
	p = strings.Join(strings.Fields(p), " ")
	tail := ""
	if strings.HasSuffix(p, " *") {
		p, tail = strings.TrimSuffix(p, " *"), "(?: .*)?"
	}
	pieces := strings.Split(p, "*")
	for i, piece := range pieces {
		pieces[i] = regexp.QuoteMeta(piece)
	}
	return regexp.MustCompile("^" + strings.Join(pieces, ".*") + tail + "$")
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

// matchesCommand reports whether a run_command rule covers one part.
func (r rule) matchesCommand(p shellPart) bool {
	if r.tool != NameRunCommand {
		return false
	}
	if r.cmd == nil {
		return true
	}
	return r.cmd.MatchString(p.text()) || r.cmd.MatchString(strings.Join(unwrap(p.words), " "))
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

// grantPrefix is what "allow for this session" covers for a part: its
// program, plus its subcommand for programs that have them.
func grantPrefix(p shellPart) string {
	w := unwrap(p.words)
	if len(w) == 0 {
		return ""
	}
	prog := filepath.Base(w[0])
	if prog == "git" {
		if sub, _ := gitSubcommand(w[1:]); sub != "" {
			return "git " + sub
		}
	}
	if subcommandPrograms[prog] && len(w) > 1 && !strings.HasPrefix(w[1], "-") {
		return prog + " " + w[1]
	}
	return prog
}

// coveredBy reports whether a part starts with a granted prefix.
func coveredBy(p shellPart, prefix string) bool {
	want := strings.Fields(prefix)
	w := unwrap(p.words)
	if len(w) < len(want) {
		return false
	}
	if len(w) > 0 {
		w = append([]string{filepath.Base(w[0])}, w[1:]...)
	}
	if want[0] == "git" && len(want) == 2 {
		sub, _ := gitSubcommand(w[1:])
		return w[0] == "git" && sub == want[1]
	}
	for i := range want {
		if w[i] != want[i] {
			return false
		}
	}
	return true
}
