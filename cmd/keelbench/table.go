package main

import (
	"fmt"
	"io"
	"slices"
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
	Baseline string // the same figure of the -baseline build; "" without one
	Status   string
}

// Evaluate checks every figure against its budget. base, when not nil,
// holds the baseline build's measurements for the Baseline column.
func Evaluate(b Budgets, m Measurements, base *Measurements) []Row {
	rows := make([]Row, 0, len(b.Figures))
	for _, f := range b.Figures {
		r := Row{Figure: f.Figure, Peer: f.Peer, Budget: "—", Status: StatusInfo}
		limit, hasLimit := budgetOf(f, m, &r)
		v, why := m.Value(f)
		switch {
		case why != "":
			r.Measured, r.Status = "n/a: "+why, StatusSkip
		case !hasLimit:
			r.Measured = withUnit(v, f.Unit)
		case v <= limit:
			r.Measured, r.Status = withUnit(v, f.Unit), StatusPass
		default:
			r.Measured, r.Status = withUnit(v, f.Unit), StatusFail
		}
		if base != nil {
			r.Baseline = baselineCell(f, *base)
		}
		rows = append(rows, r)
	}
	return rows
}

// budgetOf fills r's budget (and, for a budget of the peer's figure, its
// peer column) and returns the limit, if the figure has one.
func budgetOf(f Budget, m Measurements, r *Row) (float64, bool) {
	if f.Max != nil {
		r.Budget = "≤ " + strings.TrimSuffix(strconv.FormatFloat(*f.Max, 'g', -1, 64)+" "+f.Unit, " ")
		return *f.Max, true
	}
	if !f.MaxPeer {
		return 0, false
	}
	r.Budget = "≤ peer"
	p, why := m.peerValue(f)
	if why != "" {
		r.Peer = why
		return 0, false
	}
	r.Peer = withUnit(p, f.Unit) + " (this run)"
	return p, true
}

// baselineCell is the baseline build's value of f, or why it has none.
func baselineCell(f Budget, base Measurements) string {
	v, why := base.Value(f)
	if why != "" {
		return "n/a: " + why
	}
	return withUnit(v, f.Unit)
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

// WriteTable prints rows as an aligned text table; baseline names the
// baseline build's column ("" for none).
func WriteTable(w io.Writer, rows []Row, baseline string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	peer := slices.ContainsFunc(rows, func(r Row) bool {
		return strings.HasSuffix(r.Peer, "(this run)") || strings.HasPrefix(r.Peer, PeerNotAvailable)
	})
	head := "figure\tbudget\tmeasured"
	if baseline != "" {
		head += "\t" + baseline
	}
	if peer {
		head += "\tpeer"
	}
	fmt.Fprintln(tw, head+"\tresult")
	for _, r := range rows {
		line := r.Figure + "\t" + r.Budget + "\t" + r.Measured
		if baseline != "" {
			line += "\t" + r.Baseline
		}
		if peer {
			line += "\t" + r.Peer
		}
		fmt.Fprintln(tw, line+"\t"+r.Status)
	}
	return tw.Flush()
}

// WriteMarkdown prints rows as the Markdown table of docs/BENCHMARKS.md;
// baseline names the baseline build's column ("" for none).
func WriteMarkdown(w io.Writer, rows []Row, baseline string) error {
	var b strings.Builder
	if baseline != "" {
		b.WriteString("| figure | peer (crush v0.90.0) | keel budget | keel measured | " + baseline + " | result |\n")
		b.WriteString("|---|---|---|---|---|---|\n")
	} else {
		b.WriteString("| figure | peer (crush v0.90.0) | keel budget | keel measured | result |\n")
		b.WriteString("|---|---|---|---|---|\n")
	}
	for _, r := range rows {
		peer := r.Peer
		if peer == "" {
			peer = "—"
		}
		if baseline != "" {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", r.Figure, peer, r.Budget, r.Measured, r.Baseline, r.Status)
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.Figure, peer, r.Budget, r.Measured, r.Status)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
