package tools

// Group stands for tools that come and go while a session runs, such as
// an MCP server's, which are not known when the session starts. A Group
// travels in a tool list like any tool but is never offered itself: the
// agent offers its Members in its place from the first request after
// they arrive, and the policy judges them by name and class. Name is the
// prefix every member's name starts with ("mcp__"): a permission rule for
// a tool with that prefix may end in * ("mcp__github__*") and may name a
// member not known yet.
type Group interface {
	Tool
	// Members are the tools ready now, in the order the model sees them.
	Members() []Tool
	// Member finds a tool by name, including one whose server is still
	// starting (its Run waits for the start). It never blocks.
	Member(name string) (Tool, bool)
}

// Expand returns ts with each Group replaced by its current members.
func Expand(ts []Tool) []Tool {
	if !HasGroup(ts) {
		return ts
	}
	out := make([]Tool, 0, len(ts))
	for _, t := range ts {
		if g, ok := t.(Group); ok {
			out = append(out, g.Members()...)
			continue
		}
		out = append(out, t)
	}
	return out
}

// HasGroup reports whether ts holds a Group, whose members may change
// from one request to the next.
func HasGroup(ts []Tool) bool {
	for _, t := range ts {
		if _, ok := t.(Group); ok {
			return true
		}
	}
	return false
}

// Find looks a tool up by name in ts: a tool of that name, else a group's
// member.
func Find(ts []Tool, name string) (Tool, bool) {
	for _, t := range ts {
		if _, ok := t.(Group); !ok && t.Name() == name {
			return t, true
		}
	}
	for _, t := range ts {
		if g, ok := t.(Group); ok {
			if m, ok := g.Member(name); ok {
				return m, true
			}
		}
	}
	return nil, false
}
