package agent

import "testing"

func TestCountWords(t *testing.T) {
	for n, want := range map[int]string{0: "0 tool calls", 1: "1 tool call", 2: "2 tool calls"} {
		if got := count(n, "tool call"); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}
