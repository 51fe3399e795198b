package tools

import (
	"encoding/json"
	"fmt"
)

// Scoper is a tool whose calls the policy judges by what each one reaches,
// such as fetch by its URL's host: a rule may name a scope
// ("fetch:docs.python.org", "fetch:*.python.org"), a session grant covers
// one scope, and the question offers to allow that scope always (saved
// in the user's config through PolicyOptions.Persist).
type Scoper interface {
	// Scope is what the call reaches; an error refuses the call without
	// asking anyone (the arguments are bad or reach what is never allowed).
	Scope(args json.RawMessage) (string, error)
	// MatchScope reports whether a rule's pattern covers a scope.
	MatchScope(pattern, scope string) bool
	// CheckScopePattern checks a rule's pattern.
	CheckScopePattern(pattern string) error
}

// scopedRule reads a rule for a Scoper: "tool" covers every call,
// "tool:pattern" the scopes the pattern covers.
func scopedRule(s, tool, pattern string, sc Scoper) (rule, error) {
	if err := sc.CheckScopePattern(pattern); err != nil {
		return rule{}, fmt.Errorf("permission rule %q: %w", s, err)
	}
	return rule{raw: s, tool: tool, pattern: pattern}, nil
}

// coversScope reports whether a rule covers a Scoper's call reaching scope.
func (r rule) coversScope(tool, scope string, sc Scoper) bool {
	return r.tool == tool && (r.pattern == "" || sc.MatchScope(r.pattern, scope))
}

// decideScoped judges a Scoper's call: a scope it cannot read is refused;
// deny rules win; then --yolo, allow rules and session grants for this
// scope allow; else the user is asked, offering this scope for the
// session or always.
func (p *Policy) decideScoped(tool string, sc Scoper, args json.RawMessage) Decision {
	scope, err := sc.Scope(args)
	if err != nil {
		return deny("%v", err)
	}
	for _, r := range p.deny {
		if r.coversScope(tool, scope, sc) {
			return deny("denied by the rule %q", r.raw)
		}
	}
	if p.yolo {
		return Decision{Verdict: Allow, By: ByYolo}
	}
	for _, r := range p.allow {
		if r.coversScope(tool, scope, sc) {
			return Decision{Verdict: Allow, By: ByRule + r.raw}
		}
	}
	for _, g := range p.sessionGrants() {
		if g.Tool == tool && g.Scope == scope {
			return Decision{Verdict: Allow, By: BySession + g.Description}
		}
	}
	return Decision{Verdict: Ask, Reason: fmt.Sprintf("%s reaches %s, not allowed yet", tool, scope), Grant: Grant{
		Tool: tool, Scope: scope, Description: fmt.Sprintf("%s: every call reaching %s", tool, scope),
		Always: tool + ":" + scope,
	}}
}

// Persist saves a grant the user chose to allow always (its Always rule)
// and grants it for the session. It does nothing for a grant that offers
// no "always".
func (p *Policy) Persist(g Grant) error {
	if g.Always == "" {
		return nil
	}
	p.Grant(g)
	if p.persist == nil {
		return fmt.Errorf("%s is allowed for this session only: keel has no user config to save it in", g.Always)
	}
	return p.persist(g.Always)
}
