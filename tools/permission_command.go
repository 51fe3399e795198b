package tools

import (
	"fmt"
	"strings"
)

// harmless programs need no rule when they write no file: they only move
// around or print.
var harmless = map[string]bool{"cd": true, "pushd": true, "popd": true, "pwd": true, "true": true,
	"false": true, ":": true, "echo": true, "printf": true, "test": true, "[": true, "exit": true}

// commandAllowed allows a command when every part is covered by an allow
// rule, a session grant, or is harmless; else it asks, offering a grant
// for the parts not yet covered.
func (p *Policy) commandAllowed(parts []shellPart, dir string) Decision {
	grants := p.sessionGrants()
	var missing []shellPart
	for _, part := range parts {
		if !p.partAllowed(part, grants) {
			missing = append(missing, part)
		}
	}
	outside := !p.ws.Inside(dir)
	if len(missing) == 0 && !outside {
		return Decision{Verdict: Allow}
	}
	d := Decision{Verdict: Ask, Reason: "runs " + describeParts(missing)}
	if outside {
		d.Reason = "runs outside the workspace, in " + dir
		return d // no session grant for running elsewhere
	}
	d.Grant = commandGrant(missing)
	return d
}

func (p *Policy) partAllowed(part shellPart, grants []Grant) bool {
	if len(part.words) > 0 && harmless[part.words[0]] && len(part.redirects) == 0 {
		return true
	}
	if len(part.words) == 0 {
		return false // a bare redirection truncates a file
	}
	for _, r := range p.allow {
		if r.matchesCommand(part) {
			return true
		}
	}
	for _, g := range grants {
		if g.Tool != NameRunCommand {
			continue
		}
		for _, c := range g.Commands {
			if coveredBy(part, c) {
				return true
			}
		}
	}
	return false
}

func describeParts(parts []shellPart) string {
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		texts = append(texts, p.text())
	}
	return strings.Join(texts, "; ")
}

// commandGrant offers the program-and-subcommand prefixes of parts.
func commandGrant(parts []shellPart) Grant {
	var cmds []string
	seen := map[string]bool{}
	for _, p := range parts {
		c := grantPrefix(p)
		if c == "" || seen[c] {
			continue
		}
		seen[c] = true
		cmds = append(cmds, c)
	}
	if len(cmds) == 0 {
		return Grant{}
	}
	desc := make([]string, len(cmds))
	for i, c := range cmds {
		desc[i] = c + " …"
	}
	return Grant{Tool: NameRunCommand, Commands: cmds, Description: fmt.Sprintf("run_command: %s", strings.Join(desc, ", "))}
}
