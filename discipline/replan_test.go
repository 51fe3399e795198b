package discipline

import (
	"strings"
	"testing"
)

func TestReplanMessage(t *testing.T) {
	tests := []struct {
		attempt  int
		strategy string
		hint     string
	}{
		{1, StrategyActFirst, "smallest change"},
		{2, StrategyExploreFirst, "Before changing anything"},
		{3, StrategyActFirst, "smallest change"},
		{0, StrategyExploreFirst, "read the code"},
	}
	for _, tt := range tests {
		msg := ReplanMessage("wire the parser", "the tests still fail on empty input", []string{"patched the tokenizer", "added a guard clause"}, tt.attempt)
		if ReplanStrategy(tt.attempt) != tt.strategy {
			t.Errorf("attempt %d: strategy %q, want %q", tt.attempt, ReplanStrategy(tt.attempt), tt.strategy)
		}
		for _, want := range []string{`"wire the parser"`, "the tests still fail on empty input", "- patched the tokenizer", "- added a guard clause", "Strategy for this attempt: " + tt.strategy, tt.hint, "different approach"} {
			if !strings.Contains(msg, want) {
				t.Errorf("attempt %d: message lacks %q:\n%s", tt.attempt, want, msg)
			}
		}
		for _, w := range ecosystemWords {
			if strings.Contains(strings.ToLower(msg), w) {
				t.Errorf("attempt %d names an ecosystem (%q)", tt.attempt, w)
			}
		}
	}
	if msg := ReplanMessage("x", "", nil, 1); !strings.Contains(msg, "Nothing was recorded as tried") || strings.Contains(msg, `"x": `) {
		t.Errorf("empty why/tried rendered badly:\n%s", msg)
	}
}
