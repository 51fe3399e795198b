package browser

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/ui/theme"
)

// TestBrowserRoundCost: a logged round's cost is shown by common.Cost, and a
// round that used tokens at no cost had no price.
func TestBrowserRoundCost(t *testing.T) {
	st := theme.New(true, false)
	for _, tt := range []struct {
		cost float64
		want string
	}{{0, "price unknown"}, {0.0123, "$0.012"}, {0.0004, "<$0.001"}} {
		rd := &datalog.RoundDetail{Round: datalog.Round{TaskSeq: 1, TokensIn: 100, TokensOut: 10, Cost: tt.cost}}
		text := ansi.Strip(strings.Join(roundFull(st, rd, 200), "\n"))
		if !strings.Contains(text, "· "+tt.want+" ·") || strings.Contains(text, "$0.0000") {
			t.Errorf("cost %v: round shows\n%s", tt.cost, text)
		}
	}
}
