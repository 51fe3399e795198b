package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Status of one row of the table.
const (
	StatusPass = "PASS"
	StatusFail = "FAIL"
	StatusInfo = "info" // no budget: reported only
	StatusSkip = "skip" // not measured (the reason is in Measured)
)

// Row is one line of the table, ready to print.
type Row struct {
	Figure   string
	Peer     string
	Budget   string
	Measured string
	Status   string
}

// Evaluate checks every figure against its budget.
func Evaluate(b Budgets, m Measurements) []Row {
	rows := make([]Row, 0, len(b.Figures))
	for _, f := range b.Figures {
		r := Row{Figure: f.Figure, Peer: f.Peer, Budget: "—", Status: StatusInfo}
		if f.Max != nil {
			r.Budget = "≤ " + strings.TrimSuffix(strconv.FormatFloat(*f.Max, 'g', -1, 64)+" "+f.Unit, " ")
		}
		v, why := m.Value(f)
		switch {
		case why != "":
			r.Measured, r.Status = "n/a: "+why, StatusSkip
		case f.Max == nil:
			r.Measured = withUnit(v, f.Unit)
		case v <= *f.Max:
			r.Measured, r.Status = withUnit(v, f.Unit), StatusPass
		default:
			r.Measured, r.Status = withUnit(v, f.Unit), StatusFail
		}
		rows = append(rows, r)
	}
	return rows
}

// Failed counts the rows over budget.
func Failed(rows []Row) int {
	n := 0
	for _, r := range rows {
		if r.Status == StatusFail {
			n++
		}
	}
	return n
}

// withUnit prints v with a precision that suits its size, then its unit.
func withUnit(v float64, unit string) string {
	var s string
	switch {
	case v == 0:
		s = "0"
	case v < 1:
		s = fmt.Sprintf("%.3f", v)
	case v < 100:
		s = fmt.Sprintf("%.1f", v)
	default:
		s = fmt.Sprintf("%.0f", v)
	}
	if unit == "" {
		return s
	}
	if unit == "%" {
		return s + " %"
	}
	return s + " " + unit
}

// WriteTable prints rows as an aligned text table.
func WriteTable(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tbudget\tmeasured\tresult")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Figure, r.Budget, r.Measured, r.Status)
	}
	return tw.Flush()
}

// WriteMarkdown prints rows as the Markdown table of docs/BENCHMARKS.md.
func WriteMarkdown(w io.Writer, rows []Row) error {
	var b strings.Builder
	b.WriteString("| figure | peer (crush v0.90.0) | keel budget | keel measured | result |\n")
	b.WriteString("|---|---|---|---|---|\n")
	for _, r := range rows {
		peer := r.Peer
		if peer == "" {
			peer = "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.Figure, peer, r.Budget, r.Measured, r.Status)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
