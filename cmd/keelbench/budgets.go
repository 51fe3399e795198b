package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Sources of a figure in the budgets file.
const (
	SourceKeelbench  = "keelbench"   // a headless run of bin/keel (Rounds, Metric)
	SourceGoBench    = "gobench"     // a Go benchmark (Bench, Pkg, Metric)
	SourceBinary     = "binary"      // the size of bin/keel
	SourceTUIIdle    = "tui-idle"    // the TUI's idle CPU in tmux (Metric: wakeups_per_s for wake-ups)
	SourceTUISession = "tui-session" // memory after a 1,000-round session in the TUI (Metric: rss_end_bytes, rss_peak_bytes, rss_start_bytes)
	SourceFirstPaint = "first-paint" // keel -c of a 5,000-message session to its first screen, in tmux (Metric: resumed_ms, new_ms)
	SourceExec       = "exec"        // bin/keel started with Args and run to exit: the median wall time
	SourceFloor      = "floor"       // the keelbench workload run by the null client, not keel (Rounds, Metric)
	SourceTelemetry  = "telemetry"   // CPU per round with telemetry on as % of off, alternated runs (Rounds)
	SourceMemory     = "memory"      // keel's peak RSS through one tool call on a large input (Metric: memory.go)
)

// Budget is one figure of the table: how it is measured and the most it may
// be. A nil Max makes an informational row.
type Budget struct {
	Figure string   `json:"figure"`
	Peer   string   `json:"peer,omitempty"` // the peer's figure, for the doc
	Max    *float64 `json:"max,omitempty"`  // in Unit; nil: reported, not checked
	// MaxPeer makes the budget the peer's figure measured in the same run
	// (tui-idle figures, with -peer); without a peer the row is reported.
	MaxPeer bool     `json:"max_peer,omitempty"`
	Unit    string   `json:"unit"` // ms, µs, s, MB, KB, B or %
	Source  string   `json:"source"`
	Rounds  int      `json:"rounds,omitempty"` // keelbench: the workload size
	Metric  string   `json:"metric,omitempty"` // a Result metric, or a go test unit such as ns/op
	Bench   string   `json:"bench,omitempty"`  // gobench: the name without the -GOMAXPROCS suffix
	Pkg     string   `json:"pkg,omitempty"`    // gobench: the package, as ./dir
	Args    []string `json:"args,omitempty"`   // exec: keel's arguments
	Why     string   `json:"why,omitempty"`    // where the budget comes from
}

// Budgets is the whole budgets file.
type Budgets struct {
	Runs int `json:"runs"` // keelbench repetitions in -suite
	// Baseline is the ref -baseline auto measures when the repository has
	// no tag: the previous release (docs/BENCHMARKS.md).
	Baseline string   `json:"baseline,omitempty"`
	Figures  []Budget `json:"figures"`
}

// LoadBudgets reads and checks the budgets file at path.
func LoadBudgets(path string) (Budgets, error) {
	var b Budgets
	data, err := os.ReadFile(path)
	if err != nil {
		return b, fmt.Errorf("read the budgets file: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return b, fmt.Errorf("budgets file %s is not valid: %w", path, err)
	}
	for i, f := range b.Figures {
		if f.MaxPeer && (f.Source != SourceTUIIdle || f.Max != nil) {
			return b, fmt.Errorf("budgets file %s, figure %d (%q): max_peer is for tui-idle figures, without max", path, i+1, f.Figure)
		}
		if err := f.check(); err != nil {
			return b, fmt.Errorf("budgets file %s, figure %d (%q): %w", path, i+1, f.Figure, err)
		}
	}
	return b, nil
}

// check reports the first thing missing from a figure.
func (f Budget) check() error {
	if _, ok := unitFactor(f.Unit); !ok {
		return fmt.Errorf("unit %q is not one of ms, µs, s, MB, KB, B, %%", f.Unit)
	}
	switch f.Source {
	case SourceKeelbench, SourceFloor:
		if f.Rounds < 1 || f.Metric == "" {
			return fmt.Errorf("a %s figure needs rounds and metric", f.Source)
		}
		if _, ok := (&Result{}).Metric(f.Metric); !ok {
			return fmt.Errorf("keelbench has no metric %q", f.Metric)
		}
	case SourceGoBench:
		if f.Bench == "" || f.Pkg == "" {
			return fmt.Errorf("a gobench figure needs bench and pkg")
		}
	case SourceExec:
		if len(f.Args) == 0 {
			return fmt.Errorf("an exec figure needs args")
		}
	case SourceTUIIdle:
		if f.Metric != "" && f.Metric != MetricWakeups {
			return fmt.Errorf("a tui-idle figure's metric is %q or none (CPU)", MetricWakeups)
		}
	case SourceTUISession:
		if _, ok := (SessionResult{}).Metric(f.Metric); !ok {
			return fmt.Errorf("tui-session has no metric %q", f.Metric)
		}
	case SourceFirstPaint:
		if _, ok := (PaintResult{}).Metric(f.Metric); !ok {
			return fmt.Errorf("first-paint has no metric %q", f.Metric)
		}
	case SourceMemory:
		if _, ok := (MemoryResult{}).Metric(f.Metric); !ok {
			return fmt.Errorf("memory has no metric %q", f.Metric)
		}
	case SourceTelemetry:
		if f.Rounds < 1 || f.Unit != "%" {
			return fmt.Errorf("a telemetry figure needs rounds and the unit %%")
		}
	case SourceBinary:
	default:
		return fmt.Errorf("source %q is not keelbench, floor, gobench, binary, tui-idle, tui-session, first-paint, exec, telemetry or memory", f.Source)
	}
	return nil
}

// RoundCounts lists the distinct workload sizes the figures of source
// (keelbench or floor) need.
func (b Budgets) RoundCounts(source string) []int {
	var ns []int
	for _, f := range b.Figures {
		if f.Source == source && !slices.Contains(ns, f.Rounds) {
			ns = append(ns, f.Rounds)
		}
	}
	slices.Sort(ns)
	return ns
}

// ExecArgs lists the distinct command lines the exec figures run.
func (b Budgets) ExecArgs() [][]string {
	var out [][]string
	for _, f := range b.Figures {
		if f.Source == SourceExec && !slices.ContainsFunc(out, func(a []string) bool { return slices.Equal(a, f.Args) }) {
			out = append(out, f.Args)
		}
	}
	return out
}

// NeedsPeer reports whether a figure's budget is the peer's figure.
func (b Budgets) NeedsPeer() bool {
	return slices.ContainsFunc(b.Figures, func(f Budget) bool { return f.MaxPeer })
}

// Needs reports whether any figure comes from source.
func (b Budgets) Needs(source string) bool {
	return slices.ContainsFunc(b.Figures, func(f Budget) bool { return f.Source == source })
}

// GoTestArgs returns the go test arguments that run exactly the budgeted
// benchmarks: -bench with an anchored regexp of their top-level names, then
// the packages. The regexp has no spaces or glob characters, so a shell
// may split it unquoted.
func (b Budgets) GoTestArgs() []string {
	var names, pkgs []string
	for _, f := range b.Figures {
		if f.Source != SourceGoBench {
			continue
		}
		top, _, _ := strings.Cut(f.Bench, "/")
		if !slices.Contains(names, top) {
			names = append(names, top)
		}
		if !slices.Contains(pkgs, f.Pkg) {
			pkgs = append(pkgs, f.Pkg)
		}
	}
	return append([]string{"-bench", "^(" + strings.Join(names, "|") + ")$"}, pkgs...)
}
