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
	if by := p.readAllowedBy(tool, abs); by != "" {
		return Decision{Verdict: Allow, Target: abs, By: by}
	}
	return Decision{Verdict: Ask, Reason: "reads outside the workspace: " + abs, Target: abs,
		Grant: Grant{Tool: tool, Path: abs, Description: fmt.Sprintf("%s: %s and below, outside the workspace", tool, abs)}}
}

// readAllowedBy says who allows a read of abs: the workspace holds it,
// --yolo, a rule or a session grant; "" when none does.
func (p *Policy) readAllowedBy(tool, abs string) string {
	switch {
	case p.ws.Inside(abs):
		return ByReadOnly
	case p.yolo:
		return ByYolo
	}
	for _, r := range p.allow {
		if r.matchesPath(tool, abs) { // a bare "read_file" rule only means something outside
			return ByRule + r.raw
		}
	}
	for _, g := range p.sessionGrants() {
		if p.classes[g.Tool] == ReadOnly && g.Path != "" && (abs == g.Path || strings.HasPrefix(abs, g.Path+string(filepath.Separator))) {
			return BySession + g.Description
		}
	}
	return ""
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
		if by := p.exactlyAllowedBy(tool, abs); by != "" {
			return Decision{Verdict: Allow, Target: abs, By: by}
		}
		return deny("writing outside the workspace is not allowed: %s (the user can allow this exact path with the rule %q)", abs, tool+":"+abs)
	}
	if p.yolo {
		return Decision{Verdict: Allow, Target: abs, By: ByYolo}
	}
	if by := p.allowedToolBy(tool, abs); by != "" {
		return Decision{Verdict: Allow, Target: abs, By: by}
	}
	return Decision{Verdict: Ask, Reason: fmt.Sprintf("%s changes %s", tool, p.ws.Rel(abs)), Target: abs,
		Grant: Grant{Tool: tool, Description: tool + ": all edits this session"}}
}

func (p *Policy) exactlyAllowed(tool, abs string) bool { return p.exactlyAllowedBy(tool, abs) != "" }

// exactlyAllowedBy is the rule or grant naming exactly abs ("" if none).
func (p *Policy) exactlyAllowedBy(tool, abs string) string {
	for _, r := range p.allow {
		if r.exactPath(tool, abs) {
			return ByRule + r.raw
		}
	}
	for _, g := range p.sessionGrants() {
		if g.Tool == tool && g.Path == abs {
			return BySession + g.Description
		}
	}
	return ""
}

// allowedToolBy is the rule or grant allowing tool on abs ("" if none).
func (p *Policy) allowedToolBy(tool, abs string) string {
	for _, r := range p.allow {
		if r.matchesPath(tool, abs) {
			return ByRule + r.raw
		}
	}
	for _, g := range p.sessionGrants() {
		if g.Tool == tool && g.Path == "" {
			return BySession + g.Description
		}
	}
	return ""
}

func inTempDir(abs string) bool {
	tmp, err := filepath.EvalSymlinks(os.TempDir())
	return err == nil && strings.HasPrefix(abs, tmp+string(filepath.Separator))
}
