package eval

import (
	"fmt"
	"math"
)

// deciders are the metrics that can decide the verdict, in priority
// order: a significant difference in solve rate decides it; else in
// wasted calls; else in tool calls; else in tokens.
var deciders = []string{"solved", "wasted_calls", "tool_calls", "tokens"}

// metric returns the row called name.
func (r *Report) metric(name string) (Metric, bool) {
	for _, m := range r.Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// verdict names the better setting and says so in one line.
func verdict(r *Report) (string, string) {
	solved, _ := r.metric("solved")
	wasted, _ := r.metric("wasted_calls")
	for _, name := range deciders {
		m, ok := r.metric(name)
		if !ok || !m.Significant {
			continue
		}
		better := ArmA
		if (m.Diff.Value < 0) == m.lowerBetter {
			better = ArmB
		}
		line := fmt.Sprintf("%s did better than %s: %s", r.label(better), r.label(other(better)), m.phrase(better))
		if name != "solved" {
			line += fmt.Sprintf("; solve rates %s (A) and %s (B) do not differ significantly", pct(solved.A.Value), pct(solved.B.Value))
		}
		return better, line + "."
	}
	return "", fmt.Sprintf("No significant difference between A (%s) and B (%s) over %d runs each: solved %s vs %s, wasted calls %s vs %s per run; more --runs would narrow the intervals.",
		r.A.Settings, r.B.Settings, r.A.Runs, pct(solved.A.Value), pct(solved.B.Value), num(wasted.A.Value), num(wasted.B.Value))
}

func (r *Report) label(arm string) string {
	if arm == ArmA {
		return "A (" + r.A.Settings + ")"
	}
	return "B (" + r.B.Settings + ")"
}

func other(arm string) string {
	if arm == ArmA {
		return ArmB
	}
	return ArmA
}

// phrase states the deciding difference from the better side's view.
func (m Metric) phrase(better string) string {
	ci := m.Diff.ciText(m.Name == "solved")
	if m.Name == "solved" {
		a, b := m.A.Value, m.B.Value
		if better == ArmB {
			a, b = b, a
		}
		return fmt.Sprintf("it solved %s of runs against %s (B−A %s, 95%% CI %s pts, significant)", pct(a), pct(b), signedPts(m.Diff.Value), ci)
	}
	what := map[string]string{"wasted_calls": "wasted calls", "tool_calls": "tool calls", "tokens": "tokens"}[m.Name]
	return fmt.Sprintf("%s fewer %s per run (B−A %s, 95%% CI %s, significant)", num(math.Abs(m.Diff.Value)), what, signed(m.Diff.Value), ci)
}

// ciText renders an interval as "[low, high]", or "n/a".
func (e Estimate) ciText(points bool) string {
	if e.CI == nil {
		return "n/a"
	}
	if points {
		return fmt.Sprintf("[%+.0f, %+.0f]", 100*e.CI[0], 100*e.CI[1])
	}
	return fmt.Sprintf("[%s, %s]", signed(e.CI[0]), signed(e.CI[1]))
}

func pct(p float64) string { return fmt.Sprintf("%.0f%%", 100*p) }

func signedPts(d float64) string { return fmt.Sprintf("%+.0f pts", 100*d) }

func signed(v float64) string {
	s := num(v)
	if v >= 0 {
		s = "+" + s
	}
	return s
}

// num renders a mean compactly: 3.4, 120, 12.3k.
func num(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1000:
		return fmt.Sprintf("%.1fk", v/1000)
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 0.1 || a == 0:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
