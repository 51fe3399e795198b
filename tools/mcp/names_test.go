package mcp

import (
	"regexp"
	"strings"
	"testing"
)

var openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func TestToolName(t *testing.T) {
	long := strings.Repeat("t", 80)
	tests := []struct {
		server, tool, want string
	}{
		{"github", "create_issue", "mcp__github__create_issue"},
		{"fs", "read.file/v2", "mcp__fs__read_file_v2"},
		{"x", "héllo wörld", "mcp__x__h_llo_w_rld"},
		{"x", "", "mcp__x___"},
		{"github", long, ""}, // hashed: checked below
	}
	for _, tt := range tests {
		got := ToolName(tt.server, tt.tool)
		if !openAIName.MatchString(got) {
			t.Errorf("ToolName(%q, %q) = %q: not a valid function name", tt.server, tt.tool, got)
		}
		if tt.want != "" && got != tt.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
		if serverOf(got) != tt.server {
			t.Errorf("serverOf(%q) = %q, want %q", got, serverOf(got), tt.server)
		}
	}
	a, b := ToolName("github", long), ToolName("github", long+"x")
	if len(a) != 64 || a == b || !strings.HasPrefix(a, "mcp__github__ttt") {
		t.Errorf("long names %q and %q: want 64 characters, distinct", a, b)
	}
}

func TestCollidingNamesStayUnique(t *testing.T) {
	s := newServer(ServerConfig{Name: "s", Command: "x"}, &Options{})
	got, omitted := s.adapt(sdkTools("a.b", "a_b", "a/b"))
	seen := map[string]bool{}
	for _, tl := range got {
		if seen[tl.name] || !openAIName.MatchString(tl.name) {
			t.Errorf("name %q repeated or invalid", tl.name)
		}
		seen[tl.name] = true
	}
	if len(got) != 3 || omitted != 0 || got[0].name != "mcp__s__a_b" {
		t.Errorf("adapted %d (%d omitted), first %q", len(got), omitted, got[0].name)
	}
}

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"github", true}, {"my-server", true}, {"a_b", true}, {"A1", true},
		{"", false}, {"a__b", false}, {"_a", false}, {"a_", false}, {"a.b", false}, {"a b", false},
		{strings.Repeat("a", 33), false}, {"-a", false},
	}
	for _, tt := range tests {
		if got := CheckName(tt.name) == ""; got != tt.ok {
			t.Errorf("CheckName(%q) ok = %v, want %v", tt.name, got, tt.ok)
		}
	}
}

func TestServerOf(t *testing.T) {
	tests := []struct{ name, want string }{
		{"mcp__github__create_issue", "github"},
		{"mcp__a_b__x__y", "a_b"},
		{"mcp__github", ""},
		{"read_file", ""},
	}
	for _, tt := range tests {
		if got := serverOf(tt.name); got != tt.want {
			t.Errorf("serverOf(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
