package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func (p *Policy) decideRead(tool, path string) Decision {
	abs, err := p.ws.Resolve(path)
	if err != nil {
		return deny("cannot resolve %q: %v", path, err)
	}
	for _, r := range p.deny {
		if r.matchesPath(tool, abs) {
			return deny("denied by the rule %q", r.raw)
		}
	}
	if p.ws.Inside(abs) || p.yolo {
		return Decision{Verdict: Allow}
	}
	for _, r := range p.allow {
		if r.matchesPath(tool, abs) { // a bare "read_file" rule only means something outside
			return Decision{Verdict: Allow}
		}
	}
	for _, g := range p.sessionGrants() {
		if _, ro := readOnlyTool(g.Tool); ro && g.Path != "" && (abs == g.Path || strings.HasPrefix(abs, g.Path+string(filepath.Separator))) {
			return Decision{Verdict: Allow}
		}
	}
	return Decision{Verdict: Ask, Reason: "reads outside the workspace: " + abs,
		Grant: Grant{Tool: tool, Path: abs, Description: fmt.Sprintf("%s: %s and below, outside the workspace", tool, abs)}}
}

func readOnlyTool(name string) (Class, bool) {
	c, ok := ClassOf(name)
	return c, ok && c == ReadOnly
}

func (p *Policy) decideWrite(tool, path string) Decision {
	abs, err := p.ws.Resolve(path)
	if err != nil {
		return deny("cannot resolve %q: %v", path, err)
	}
	if InGitDir(abs) {
		return deny("writes into .git are never allowed: %s", abs)
	}
	for _, r := range p.deny {
		if r.matchesPath(tool, abs) {
			return deny("denied by the rule %q", r.raw)
		}
	}
	if !p.ws.Inside(abs) {
		if p.exactlyAllowed(tool, abs) {
			return Decision{Verdict: Allow}
		}
		return deny("writing outside the workspace is not allowed: %s (the user can allow this exact path with the rule %q)", abs, tool+":"+abs)
	}
	if p.yolo || p.allowedTool(tool, abs) {
		return Decision{Verdict: Allow}
	}
	return Decision{Verdict: Ask, Reason: fmt.Sprintf("%s changes %s", tool, p.ws.Rel(abs)),
		Grant: Grant{Tool: tool, Description: tool + ": all edits this session"}}
}

func (p *Policy) exactlyAllowed(tool, abs string) bool {
	for _, r := range p.allow {
		if r.exactPath(tool, abs) {
			return true
		}
	}
	for _, g := range p.sessionGrants() {
		if g.Tool == tool && g.Path == abs {
			return true
		}
	}
	return false
}

func (p *Policy) allowedTool(tool, abs string) bool {
	for _, r := range p.allow {
		if r.matchesPath(tool, abs) {
			return true
		}
	}
	for _, g := range p.sessionGrants() {
		if g.Tool == tool && g.Path == "" {
			return true
		}
	}
	return false
}

// decideCommand splits the command and requires every part to be allowed.
func (p *Policy) decideCommand(command, workdir string) Decision {
	if strings.TrimSpace(command) == "" {
		return deny("command is empty")
	}
	dir, err := p.ws.Resolve(workdir)
	if err != nil {
		return deny("cannot resolve workdir %q: %v", workdir, err)
	}
	parts, err := splitCommand(command)
	if err != nil {
		if p.yolo {
			return Decision{Verdict: Allow}
		}
		return Decision{Verdict: Ask, Reason: "keel could not split this command into parts (" + err.Error() + "); approve it as a whole"}
	}
	if d, stop := p.commandDenied(parts, dir); stop {
		return d
	}
	if why := p.commandDestructive(parts, dir); why != "" {
		if p.yolo {
			return Decision{Verdict: Allow, Destructive: true, Reason: why}
		}
		return Decision{Verdict: Ask, Destructive: true, Reason: "destructive: " + why}
	}
	if p.yolo {
		return Decision{Verdict: Allow}
	}
	return p.commandAllowed(parts, dir)
}

// commandDenied applies deny rules and the .git and yolo-outside limits
// to every part's words and redirections.
func (p *Policy) commandDenied(parts []shellPart, dir string) (Decision, bool) {
	for _, part := range parts {
		for _, r := range p.deny {
			if r.matchesCommand(part) {
				return deny("denied by the rule %q: %s", r.raw, part.text()), true
			}
		}
		for _, t := range part.redirects {
			abs, special := p.redirectTarget(t, dir)
			switch {
			case special:
			case InGitDir(abs):
				return deny("writes into .git are never allowed: %s", abs), true
			case p.yolo && !p.ws.Inside(abs) && !inTempDir(abs):
				return deny("--yolo does not allow writing outside the workspace: %s", abs), true
			}
		}
	}
	return Decision{}, false
}

// redirectTarget resolves a redirection target against the command's
// directory; special is true for /dev/* and unexpandable targets.
func (p *Policy) redirectTarget(t, dir string) (abs string, special bool) {
	if strings.HasPrefix(t, "/dev/") || strings.ContainsAny(t, "$`*?") {
		return "", true
	}
	if !filepath.IsAbs(t) && !strings.HasPrefix(t, "~") {
		t = filepath.Join(dir, t)
	}
	abs, err := p.ws.Resolve(t)
	if err != nil {
		return "", true
	}
	return abs, false
}

func inTempDir(abs string) bool {
	tmp, err := filepath.EvalSymlinks(os.TempDir())
	return err == nil && strings.HasPrefix(abs, tmp+string(filepath.Separator))
}

func (p *Policy) commandDestructive(parts []shellPart, dir string) string {
	if pipesToShell(parts) {
		return "runs a downloaded script (curl | sh)"
	}
	for _, part := range parts {
		if why := destructiveReason(part); why != "" {
			return why + ": " + part.text()
		}
		for _, t := range part.redirects {
			abs, special := p.redirectTarget(t, dir)
			if _, err := os.Stat(abs); !special && err == nil && !p.ws.Inside(abs) {
				return "overwrites a file outside the workspace: " + abs
			}
		}
	}
	return ""
}
