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
	if p.readAllowed(tool, abs) {
		return Decision{Verdict: Allow, Target: abs}
	}
	return Decision{Verdict: Ask, Reason: "reads outside the workspace: " + abs, Target: abs,
		Grant: Grant{Tool: tool, Path: abs, Description: fmt.Sprintf("%s: %s and below, outside the workspace", tool, abs)}}
}

// readAllowed: inside the workspace, --yolo, a rule or a session grant.
func (p *Policy) readAllowed(tool, abs string) bool {
	if p.ws.Inside(abs) || p.yolo {
		return true
	}
	for _, r := range p.allow {
		if r.matchesPath(tool, abs) { // a bare "read_file" rule only means something outside
			return true
		}
	}
	for _, g := range p.sessionGrants() {
		if p.classes[g.Tool] == ReadOnly && g.Path != "" && (abs == g.Path || strings.HasPrefix(abs, g.Path+string(filepath.Separator))) {
			return true
		}
	}
	return false
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
	if Protected(abs) {
		return Decision{Verdict: Ask, Reason: fmt.Sprintf("%s changes keel's own configuration or instructions: %s", tool, p.ws.Rel(abs)), Target: abs}
	}
	if !p.ws.Inside(abs) {
		if p.exactlyAllowed(tool, abs) {
			return Decision{Verdict: Allow, Target: abs}
		}
		return deny("writing outside the workspace is not allowed: %s (the user can allow this exact path with the rule %q)", abs, tool+":"+abs)
	}
	if p.yolo || p.allowedTool(tool, abs) {
		return Decision{Verdict: Allow, Target: abs}
	}
	return Decision{Verdict: Ask, Reason: fmt.Sprintf("%s changes %s", tool, p.ws.Rel(abs)), Target: abs,
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

func inTempDir(abs string) bool {
	tmp, err := filepath.EvalSymlinks(os.TempDir())
	return err == nil && strings.HasPrefix(abs, tmp+string(filepath.Separator))
}
