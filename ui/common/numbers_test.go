package common

import (
	"strings"
	"testing"
)

func TestCostText(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		in   *float64
		want string
	}{
		{nil, "price unknown"},
		{f(0), "$0"},
		{f(0.0004), "<$0.001"},
		{f(0.001), "$0.001"},
		{f(0.0050), "$0.005"},
		{f(0.1), "$0.10"},
		{f(0.0123), "$0.012"},
		{f(0.0129), "$0.013"},
		{f(0.123), "$0.12"},
		{f(0.999), "$1.00"},
		{f(1.234), "$1.23"},
		{f(42), "$42.00"},
	}
	for _, tt := range tests {
		if got := Cost(tt.in); got != tt.want {
			t.Errorf("Cost(%v) = %q, want %q", deref(tt.in), got, tt.want)
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestPluralAndThousands(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 calls"}, {1, "1 call"}, {2, "2 calls"}} {
		if got := Plural(tt.n, "call"); got != tt.want {
			t.Errorf("Plural(%d) = %q", tt.n, got)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4321: "-4,321"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestLoggedCost(t *testing.T) {
	if LoggedCost(0, 100) != nil {
		t.Error("0 for a round with tokens means no price")
	}
	if c := LoggedCost(0, 0); c == nil || *c != 0 {
		t.Error("a round without tokens cost nothing")
	}
	if c := LoggedCost(0.5, 100); c == nil || *c != 0.5 {
		t.Error("a price is kept")
	}
}

// Wrap breaks at spaces, never inside a hyphenated path (issue 32: the
// welcome screen wrapped /tmp/keel-home/config at a hyphen).
func TestWrapKeepsHyphenatedWordsWhole(t *testing.T) {
	cases := []struct {
		text  string
		width int
		want  []string
	}{
		{"writes a commented /home/me/my-config-dir/keel/config.toml to edit", 40,
			[]string{"writes a commented", "/home/me/my-config-dir/keel/config.toml", "to edit"}},
		{"a well-known fact", 12, []string{"a well-known", "fact"}},
		{"abcdefgh-ijkl", 8, []string{"abcdefgh", "-ijkl"}}, // wider than the line: cut
	}
	for _, c := range cases {
		got := strings.Split(WrapText(c.text, c.width), "\n")
		for i := range got {
			got[i] = strings.TrimRight(got[i], " ")
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("WrapText(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
}

// A call without a telling argument is summarised as compact JSON, not
// Go's map syntax (issue 32: "evidence=[the tool calls so far]").
func TestKeyArgumentIsCompactJSON(t *testing.T) {
	cases := []struct{ tool, args, want string }{
		{"run_command", `{"command":"go test ./..."}`, "go test ./..."},
		{"note", `{"text":"ok","tags":["a < b","c"],"weight":0.9}`, `{"tags":["a < b","c"],"text":"ok","weight":0.9}`},
		{"reflect", `{"progress":"ok","evidence":["a"],"confidence":0.9,"adjustment":"continue"}`, "continue · confidence 0.90"},
		{"x", `not json`, "not json"},
		{"list_dir", `{}`, ""}, // a new user's trial: "list_dir {}"
	}
	for _, c := range cases {
		if got := KeyArgument(c.tool, c.args); got != c.want {
			t.Errorf("KeyArgument(%s) = %q, want %q", c.args, got, c.want)
		}
	}
}
