package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Progress is a running call's report of how far it got, as MCP's
// progress notifications carry it: a count that grows, the total when
// known (0: unknown) and a message.
type Progress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// Fraction is how much is done, in [0, 1], or -1 when the total is not
// known.
func (p Progress) Fraction() float64 {
	if p.Total <= 0 || math.IsNaN(p.Progress) || math.IsNaN(p.Total) {
		return -1
	}
	return min(max(p.Progress/p.Total, 0), 1)
}

// String is the report in a few words: "3/5 (60%) indexing", "12 rows".
func (p Progress) String() string {
	var b strings.Builder
	switch {
	case p.Fraction() >= 0:
		fmt.Fprintf(&b, "%s/%s (%d%%)", num(p.Progress), num(p.Total), int(math.Round(p.Fraction()*100)))
	default:
		b.WriteString(num(p.Progress))
	}
	if m := strings.Join(strings.Fields(p.Message), " "); m != "" {
		b.WriteString(" " + m)
	}
	return b.String()
}

// num prints a count without a fraction when it has none.
func num(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.2f", f)
}

// Progressive is a tool that reports progress while it runs (an MCP
// server's tool). The agent calls RunProgress instead of Run, with a
// report function that is safe to call from any goroutine; a report may
// still come shortly after RunProgress returned (MCP's notifications
// travel apart from the response), and the caller ignores it then.
type Progressive interface {
	RunProgress(ctx context.Context, args json.RawMessage, report func(Progress)) (Result, error)
}
