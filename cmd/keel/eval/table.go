package eval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// rowLabels are the metrics as the table names them; the waste
// categories are indented under wasted calls.
var rowLabels = map[string]string{
	"solved": "solved", "tool_calls": "tool calls", "wasted_calls": "wasted calls",
	"repeats": "  repeats", "rereads": "  rereads", "failed_calls": "  failed",
	"tokens": "tokens", "cost_usd": "cost", "interventions": "interventions",
}

// WriteText prints the report as a table, the per-task lines, the
// methods and the verdict.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "keel eval · model %s · %d tasks × %d runs per setting\n", r.Model, len(r.Tasks), r.Runs)
	fmt.Fprintf(&b, "A: %s\nB: %s\n\n", r.A.Settings, r.B.Settings)
	tw := tabwriter.NewWriter(&b, 0, 0, 3, ' ', 0)
	fmt.Fprintln(tw, "\tA\tB\tB − A")
	for _, m := range r.Metrics {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", rowLabels[m.Name], r.cell(m, m.A, ArmA), r.cell(m, m.B, ArmB), diffCell(m))
	}
	_ = tw.Flush()
	if r.CostUnknown {
		b.WriteString("cost: unknown (the provider has no input_price_per_mtok / output_price_per_mtok)\n")
	}
	b.WriteString("\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 3, ' ', 0)
	fmt.Fprintln(tw, "task\tsolved A\tsolved B\twasted A\twasted B\tcalls A\tcalls B")
	for _, l := range r.PerTask {
		fmt.Fprintf(tw, "%s\t%d/%d\t%d/%d\t%s\t%s\t%s\t%s\n", l.Task, l.SolvedA, l.Runs, l.SolvedB, l.Runs,
			num(l.WastedA), num(l.WastedB), num(l.CallsA), num(l.CallsB))
	}
	_ = tw.Flush()
	fmt.Fprintf(&b, "\n%s\n\n%s\n", r.Methods, r.Verdict)
	_, err := io.WriteString(w, b.String())
	return err
}

// cell renders one side's estimate: "38/40 95% [84%, 99%]" or "6.4 [5.9, 6.9]".
func (r *Report) cell(m Metric, e Estimate, arm string) string {
	if m.Name == "solved" {
		s := r.A
		if arm == ArmB {
			s = r.B
		}
		out := fmt.Sprintf("%d/%d %s", s.Solved, s.Runs, pct(e.Value))
		if e.CI != nil {
			out += fmt.Sprintf(" [%s, %s]", pct(e.CI[0]), pct(e.CI[1]))
		}
		return out
	}
	f := valueFormat(m.Name)
	out := f(e.Value)
	if e.CI != nil {
		out += fmt.Sprintf(" [%s, %s]", f(e.CI[0]), f(e.CI[1]))
	}
	return out
}

// diffCell renders B − A with its interval, starred when significant.
func diffCell(m Metric) string {
	var out string
	if m.Name == "solved" {
		out = signedPts(m.Diff.Value) + " " + m.Diff.ciText(true)
	} else {
		f := valueFormat(m.Name)
		out = signedWith(f, m.Diff.Value)
		if m.Diff.CI != nil {
			out += fmt.Sprintf(" [%s, %s]", signedWith(f, m.Diff.CI[0]), signedWith(f, m.Diff.CI[1]))
		} else {
			out += " n/a"
		}
	}
	if m.Significant {
		out += " *"
	}
	return out
}

func valueFormat(name string) func(float64) string {
	if name == "cost_usd" {
		return func(v float64) string { return fmt.Sprintf("$%.4f", v) }
	}
	return num
}

func signedWith(f func(float64) string, v float64) string {
	if v >= 0 {
		return "+" + f(v)
	}
	return f(v)
}
