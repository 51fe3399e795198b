package eval

import "math"

// Report is an eval's outcome: per-metric estimates for A and B, the
// difference B − A, per-task lines, the verdict and every run.
type Report struct {
	Model       string      `json:"model"`
	Tasks       []string    `json:"tasks"`
	Runs        int         `json:"runs_per_task"`
	A           Side        `json:"a"`
	B           Side        `json:"b"`
	Metrics     []Metric    `json:"metrics"`
	CostUnknown bool        `json:"cost_unknown"` // no run had a price: cost is left out
	PerTask     []TaskLine  `json:"per_task"`
	Better      string      `json:"better"` // ArmA, ArmB, or "" when no difference is significant
	Verdict     string      `json:"verdict"`
	Methods     string      `json:"methods"`
	Results     []RunResult `json:"runs"`
}

// Side is one setting's label and solve count.
type Side struct {
	Settings string `json:"settings"`
	Solved   int    `json:"solved"`
	Runs     int    `json:"runs"`
}

// Metric is one row of the table.
type Metric struct {
	Name        string   `json:"name"`
	A           Estimate `json:"a"`
	B           Estimate `json:"b"`
	Diff        Estimate `json:"b_minus_a"`
	Significant bool     `json:"significant"` // Diff's interval excludes 0
	lowerBetter bool
}

// Estimate is a mean (or a proportion, for solved) with its 95%
// interval; CI is nil when it cannot be estimated (fewer than two runs).
type Estimate struct {
	Value float64     `json:"value"`
	CI    *[2]float64 `json:"ci95"`
}

// TaskLine is one task's figures under A and B.
type TaskLine struct {
	Task    string  `json:"task"`
	SolvedA int     `json:"solved_a"`
	SolvedB int     `json:"solved_b"`
	Runs    int     `json:"runs"`
	WastedA float64 `json:"wasted_a"`
	WastedB float64 `json:"wasted_b"`
	CallsA  float64 `json:"tool_calls_a"`
	CallsB  float64 `json:"tool_calls_b"`
}

// Methods states how the intervals are computed.
const Methods = "95% intervals. solved: Wilson score; B−A: Newcombe's hybrid score. " +
	"Other rows: mean with a Student t interval (clipped at 0); B−A: paired t over the (task, run) pairs. " +
	"* marks a difference whose interval excludes 0."

// metricDefs are the mean rows: name and how to read a run.
var metricDefs = []struct {
	name string
	get  func(RunResult) float64
}{
	{"tool_calls", func(r RunResult) float64 { return float64(r.ToolCalls) }},
	{"wasted_calls", func(r RunResult) float64 { return float64(r.Wasted) }},
	{"repeats", func(r RunResult) float64 { return float64(r.Waste.Repeats) }},
	{"rereads", func(r RunResult) float64 { return float64(r.Waste.Rereads) }},
	{"failed_calls", func(r RunResult) float64 { return float64(r.Waste.Failed) }},
	{"tokens", func(r RunResult) float64 { return float64(r.Tokens) }},
	{"cost_usd", func(r RunResult) float64 { return cost(r) }},
	{"interventions", func(r RunResult) float64 { return float64(r.Interventions) }},
}

func cost(r RunResult) float64 {
	if r.CostUSD == nil {
		return 0
	}
	return *r.CostUSD
}

// Summarize compares the runs of A and B. Runs are paired by task and run
// number; tasks lists the task order.
func Summarize(model string, tasks []*Task, runs int, a, b Settings, results []RunResult) *Report {
	as, bs := pairs(tasks, runs, results)
	rep := &Report{Model: model, Runs: runs, Methods: Methods, Results: results,
		A: side(a, as), B: side(b, bs), CostUnknown: true}
	for _, t := range tasks {
		rep.Tasks = append(rep.Tasks, t.Name)
	}
	for _, r := range results {
		if r.CostUSD != nil {
			rep.CostUnknown = false
		}
	}
	rep.Metrics = append(rep.Metrics, solvedMetric(rep.A, rep.B))
	for _, d := range metricDefs {
		if d.name == "cost_usd" && rep.CostUnknown {
			continue
		}
		rep.Metrics = append(rep.Metrics, meanMetric(d.name, values(as, d.get), values(bs, d.get)))
	}
	rep.PerTask = perTask(tasks, as, bs)
	rep.Better, rep.Verdict = verdict(rep)
	return rep
}

// pairs orders A's and B's runs alike: by task, then run number.
func pairs(tasks []*Task, runs int, results []RunResult) (as, bs []RunResult) {
	type key struct {
		task string
		run  int
	}
	byKey := map[key][2]RunResult{}
	for _, r := range results {
		p := byKey[key{r.Task, r.Run}]
		if r.Arm == ArmA {
			p[0] = r
		} else {
			p[1] = r
		}
		byKey[key{r.Task, r.Run}] = p
	}
	for _, t := range tasks {
		for run := 1; run <= runs; run++ {
			if p, ok := byKey[key{t.Name, run}]; ok {
				as, bs = append(as, p[0]), append(bs, p[1])
			}
		}
	}
	return as, bs
}

func side(s Settings, rs []RunResult) Side {
	sd := Side{Settings: s.String(), Runs: len(rs)}
	for _, r := range rs {
		if r.Solved {
			sd.Solved++
		}
	}
	return sd
}

func values(rs []RunResult, get func(RunResult) float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = get(r)
	}
	return out
}

func solvedMetric(a, b Side) Metric {
	pa, pb := ratio(a.Solved, a.Runs), ratio(b.Solved, b.Runs)
	d := Newcombe(a.Solved, a.Runs, b.Solved, b.Runs)
	return Metric{Name: "solved",
		A:           estimate(pa, Wilson(a.Solved, a.Runs)),
		B:           estimate(pb, Wilson(b.Solved, b.Runs)),
		Diff:        estimate(pb-pa, d),
		Significant: d.Excludes0(),
	}
}

func meanMetric(name string, a, b []float64) Metric {
	ma, ia := Mean(a)
	mb, ib := Mean(b)
	md, id := PairedDiff(a, b)
	ia.Low, ib.Low = max(ia.Low, 0), max(ib.Low, 0) // counts, tokens and costs are never negative
	return Metric{Name: name, A: estimate(ma, ia), B: estimate(mb, ib), Diff: estimate(md, id),
		Significant: id.Excludes0(), lowerBetter: true}
}

func estimate(v float64, iv Interval) Estimate {
	e := Estimate{Value: v}
	if iv.OK && !math.IsNaN(iv.Low) && !math.IsNaN(iv.High) {
		e.CI = &[2]float64{iv.Low, iv.High}
	}
	return e
}

func ratio(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

func perTask(tasks []*Task, as, bs []RunResult) []TaskLine {
	var out []TaskLine
	for _, t := range tasks {
		l := TaskLine{Task: t.Name}
		var wa, wb, ca, cb []float64
		for i := range as {
			if as[i].Task != t.Name {
				continue
			}
			l.Runs++
			l.SolvedA += b2i(as[i].Solved)
			l.SolvedB += b2i(bs[i].Solved)
			wa, wb = append(wa, float64(as[i].Wasted)), append(wb, float64(bs[i].Wasted))
			ca, cb = append(ca, float64(as[i].ToolCalls)), append(cb, float64(bs[i].ToolCalls))
		}
		l.WastedA, _ = Mean(wa)
		l.WastedB, _ = Mean(wb)
		l.CallsA, _ = Mean(ca)
		l.CallsB, _ = Mean(cb)
		out = append(out, l)
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
