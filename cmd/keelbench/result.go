package main

// metric is one named figure of a Result.
type metric struct {
	name string
	val  *float64
}

// metrics lists r's figures by the names cmd/keelbench/budgets.json uses.
func (r *Result) metrics() []metric {
	return []metric{
		{"start_ms", &r.StartMs},
		{"gap_median_ms", &r.GapMedianMs},
		{"gap_p90_ms", &r.GapP90Ms},
		{"gap_max_ms", &r.GapMaxMs},
		{"wall_ms", &r.WallMs},
		{"cpu_ms", &r.CPUMs},
		{"cpu_per_round_ms", &r.CPUPerRoundMs},
		{"max_rss_bytes", &r.MaxRSSBytes},
		{"last_request_bytes", &r.LastRequestBytes},
		{"datalog_bytes", &r.DatalogBytes},
	}
}

// Metric returns the figure called name, and whether it exists.
func (r Result) Metric(name string) (float64, bool) {
	for _, m := range r.metrics() {
		if m.name == name {
			return *m.val, true
		}
	}
	return 0, false
}

// medianResult takes, figure by figure, the median over runs; the other
// fields come from the first run.
func medianResult(runs []Result) Result {
	out := runs[0]
	for i, m := range out.metrics() {
		vals := make([]float64, len(runs))
		for k := range runs {
			vals[k] = *runs[k].metrics()[i].val
		}
		*m.val = Median(vals)
	}
	return out
}
