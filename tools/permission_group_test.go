package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// stubTool is a tool the policy only reads the name and class of.
type stubTool struct {
	name  string
	class Class
}

func (s stubTool) Name() string            { return s.name }
func (s stubTool) Description() string     { return "stub " + s.name }
func (s stubTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (s stubTool) Class() Class            { return s.class }
func (s stubTool) Run(context.Context, json.RawMessage) (Result, error) {
	return Result{Output: s.name}, nil
}

// stubGroup is a Group whose members are listed; pending names are found
// by Member but not listed yet (a server still starting).
type stubGroup struct {
	stubTool
	members []Tool
	pending []string
}

var _ Group = (*stubGroup)(nil)

func (g *stubGroup) Members() []Tool { return g.members }
func (g *stubGroup) Member(name string) (Tool, bool) {
	if t, ok := Lookup(g.members, name); ok {
		return t, true
	}
	for _, p := range g.pending {
		if p == name {
			return stubTool{name: name, class: Execute}, true
		}
	}
	return nil, false
}

func newStubGroup() *stubGroup {
	return &stubGroup{stubTool: stubTool{name: "mcp__"},
		members: []Tool{stubTool{"mcp__github__list_issues", ReadOnly}, stubTool{"mcp__github__create_issue", Execute}, stubTool{"mcp__db__query", Execute}},
		pending: []string{"mcp__slow__run"}}
}

func TestGroupToolsDecide(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "x"})
	ts := append(New(ws, Options{}), newStubGroup())
	pol := func(allow, deny []string, yolo bool) *Policy {
		return mustPolicy(t, ws, PolicyOptions{Tools: ts, Allow: allow, Deny: deny, Yolo: yolo})
	}
	tests := []struct {
		name   string
		p      *Policy
		tool   string
		want   Verdict
		reason string
	}{
		{"asks by default", pol(nil, nil, false), "mcp__github__create_issue", Ask, "runs mcp__github__create_issue"},
		{"read-only member runs", pol(nil, nil, false), "mcp__github__list_issues", Allow, ""},
		{"server glob allows", pol([]string{"mcp__github__*"}, nil, false), "mcp__github__create_issue", Allow, ""},
		{"server glob is the server's only", pol([]string{"mcp__github__*"}, nil, false), "mcp__db__query", Ask, ""},
		{"exact name allows", pol([]string{"mcp__db__query"}, nil, false), "mcp__db__query", Allow, ""},
		{"all MCP tools", pol([]string{"mcp__*"}, nil, false), "mcp__db__query", Allow, ""},
		{"deny glob wins over allow", pol([]string{"mcp__*"}, []string{"mcp__db__*"}, false), "mcp__db__query", Deny, `"mcp__db__*"`},
		{"deny wins over read-only", pol(nil, []string{"mcp__github__list_*"}, false), "mcp__github__list_issues", Deny, "denied"},
		{"deny wins over yolo", pol(nil, []string{"mcp__db__*"}, true), "mcp__db__query", Deny, "denied"},
		{"yolo allows", pol(nil, nil, true), "mcp__db__query", Allow, ""},
		{"a server still starting asks", pol(nil, nil, false), "mcp__slow__run", Ask, ""},
		{"a server still starting follows its rule", pol([]string{"mcp__slow__*"}, nil, false), "mcp__slow__run", Allow, ""},
		{"an unknown MCP tool is denied", pol([]string{"mcp__*"}, nil, false), "mcp__nope__x", Deny, "unknown tool"},
		{"the group itself is no tool", pol(nil, nil, true), "mcp__", Deny, "unknown tool"},
		{"builtins unchanged", pol([]string{"mcp__*"}, nil, false), "write_file", Deny, "outside the workspace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.p.Decide(tt.tool, json.RawMessage(`{"path":"/etc/passwd","command":"rm -rf /"}`))
			if d.Verdict != tt.want || !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("Decide(%s) = %v %q, want %v containing %q", tt.tool, d.Verdict, d.Reason, tt.want, tt.reason)
			}
		})
	}
}

func TestGroupRulesParse(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "x"})
	withGroup := append(New(ws, Options{}), newStubGroup())
	tests := []struct {
		name  string
		tools []Tool
		rule  string
		err   string
	}{
		{"glob", withGroup, "mcp__github__*", ""},
		{"a server not started yet", withGroup, "mcp__later__tool", ""},
		{"a pattern is refused", withGroup, "mcp__github__x:foo", "takes no pattern"},
		{"no group: unknown", New(ws, Options{}), "mcp__github__*", "unknown tool"},
		{"a glob is no builtin", withGroup, "read_*", "unknown tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewPolicy(ws, PolicyOptions{Tools: tt.tools, Allow: []string{tt.rule}})
			if (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("NewPolicy(%q) error = %v, want %q", tt.rule, err, tt.err)
			}
		})
	}
}

func TestGroupSessionGrant(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "x"})
	p := mustPolicy(t, ws, PolicyOptions{Tools: []Tool{newStubGroup()}})
	d := p.Decide("mcp__db__query", nil)
	if d.Verdict != Ask || d.Grant.Tool != "mcp__db__query" {
		t.Fatalf("decision = %+v, want ask with a grant for the tool", d)
	}
	p.Grant(d.Grant)
	if v := p.Decide("mcp__db__query", nil).Verdict; v != Allow {
		t.Errorf("after the grant: %v, want allow", v)
	}
	if v := p.Decide("mcp__github__create_issue", nil).Verdict; v != Ask {
		t.Errorf("another tool after the grant: %v, want ask", v)
	}
}

func TestExpandAndFind(t *testing.T) {
	g := newStubGroup()
	ts := []Tool{stubTool{"read_file", ReadOnly}, g, stubTool{"update_plan", ReadOnly}}
	var names []string
	for _, t := range Expand(ts) {
		names = append(names, t.Name())
	}
	if got := strings.Join(names, " "); got != "read_file mcp__github__list_issues mcp__github__create_issue mcp__db__query update_plan" {
		t.Errorf("Expand = %s", got)
	}
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"read_file", true}, {"mcp__db__query", true}, {"mcp__slow__run", true}, {"mcp__", false}, {"nope", false}} {
		if _, ok := Find(ts, tc.name); ok != tc.ok {
			t.Errorf("Find(%s) = %v, want %v", tc.name, ok, tc.ok)
		}
	}
}
