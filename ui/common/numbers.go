package common

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/discipline"
)

// Cost is how ui shows an amount of dollars, everywhere: nil (no
// price is configured for the model) says so instead of a misleading
// $0; under a tenth of a cent is "<$0.001"; under a dollar keeps two
// significant digits ($0.012, $0.12, $0.005); from a dollar, cents.
func Cost(usd *float64) string {
	if usd == nil {
		return "price unknown"
	}
	v := *usd
	switch {
	case v <= 0:
		return "$0"
	case v < 0.001:
		return "<$0.001"
	case v < 1:
		digits := 1 - int(math.Floor(math.Log10(v))) // two significant digits
		s := strconv.FormatFloat(v, 'f', digits, 64)
		if digits > 2 { // past the cents: $0.005 and $0.03, not $0.0050 and $0.030
			s = strings.TrimRight(s, "0")
		}
		return "$" + s
	}
	return fmt.Sprintf("$%.2f", v)
}

// LoggedCost reads a cost from the datalog, which stores 0 when no price
// was configured: a round that used tokens and cost nothing had no price.
func LoggedCost(usd float64, tokens int) *float64 {
	if !datalog.CostKnown(usd, tokens) {
		return nil
	}
	return &usd
}

// Plural is n and a noun, with keel's one plural rule (discipline.Plural):
// "1 call", "2 calls".
func Plural(n int, noun string) string { return discipline.Plural(n, noun) }

// NounFor is the noun for n of it: "call" for 1, "calls" otherwise.
func NounFor(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// Thousands writes n with thin separators for reading: 12,345.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// Tokens shows a token count short: 950, 12.3k, 1.2M.
func Tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

// Bytes shows a size short: 512 B, 4.1 KiB, 1.2 MiB.
func Bytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
