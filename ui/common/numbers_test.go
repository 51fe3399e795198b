package common

import (
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
