package main

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteReport prints one workload's figures, one per line.
func WriteReport(w io.Writer, r Result, runs int, nullClient bool) {
	who := "keel headless"
	if nullClient {
		who = "the null client (no keel: the harness's share)"
	}
	fmt.Fprintf(w, "%s, %d rounds, median of %d run(s), stop reason %s\n", who, r.Rounds, runs, r.StopReason)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	rows := []struct{ name, val string }{
		{"process start → first request", fmtMs(r.StartMs)},
		{"gap between rounds, median", fmtMs(r.GapMedianMs)},
		{"gap between rounds, p90", fmtMs(r.GapP90Ms)},
		{"gap between rounds, max", fmtMs(r.GapMaxMs)},
		{"wall time", fmtMs(r.WallMs)},
		{"CPU user+sys", fmtMs(r.CPUMs)},
		{"CPU per round", fmtMs(r.CPUPerRoundMs)},
		{"max RSS", fmtBytes(r.MaxRSSBytes)},
		{"request bytes, last round", fmtBytes(r.LastRequestBytes)},
		{"datalog size", fmtBytes(r.DatalogBytes)},
	}
	for _, row := range rows {
		fmt.Fprintf(tw, "  %s\t%s\n", row.name, row.val)
	}
	_ = tw.Flush()
}

// fmtMs prints milliseconds with precision that suits their size.
func fmtMs(v float64) string {
	switch {
	case v < 0.1:
		return fmt.Sprintf("%.1f µs", v*1000)
	case v < 10:
		return fmt.Sprintf("%.2f ms", v)
	}
	return fmt.Sprintf("%.0f ms", v)
}

// fmtBytes prints a size in KB or MB (powers of 1024, as ls -h does).
func fmtBytes(v float64) string {
	switch {
	case v >= 1<<20:
		return fmt.Sprintf("%.1f MB", v/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.1f KB", v/(1<<10))
	}
	return fmt.Sprintf("%.0f B", v)
}
