package tools

import (
	"fmt"
	"strings"
)

// classOf is a tool's permission class: a tool the policy was given, else
// a group's member (an MCP tool, perhaps of a server still starting).
func (p *Policy) classOf(tool string) (Class, bool) {
	if c, ok := p.classes[tool]; ok {
		return c, true
	}
	for _, g := range p.groups {
		if m, ok := g.Member(tool); ok {
			return m.Class(), true
		}
	}
	return 0, false
}

// inGroup reports whether a rule's tool name starts with a group's
// prefix: it names a group's tools, known or not yet.
func (p *Policy) inGroup(tool string) bool {
	for _, g := range p.groups {
		if prefix := g.Name(); prefix != "" && strings.HasPrefix(tool, prefix) {
			return true
		}
	}
	return false
}

// groupRule reads a rule for a group's tools: a name in which * matches
// any characters ("mcp__github__*"), never followed by a pattern (the
// policy cannot read such a tool's arguments).
func groupRule(s, tool string, hasColon bool) (rule, error) {
	if hasColon {
		return rule{}, fmt.Errorf("permission rule %q: %s takes no pattern after a colon (keel cannot read its arguments); write %q", s, tool, tool)
	}
	return rule{raw: s, tool: tool, group: true}, nil
}

// names reports whether a rule covers every call of tool: the same name,
// or a group rule whose * pattern matches it.
func (r rule) names(tool string) bool {
	if r.group {
		return wildMatch(r.tool, tool)
	}
	return r.tool == tool
}
