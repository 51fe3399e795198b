package main

import "strings"

// Measurements holds everything the suite measured; a figure's value is
// looked up here by its Budget.
type Measurements struct {
	Headless    map[int]Result // by workload rounds
	Floor       map[int]Result // the null client's, by workload rounds
	Bench       []BenchLine
	BinaryBytes float64
	TUIIdle     IdleResult
	TUISession  SessionResult
	FirstPaint  PaintResult
	Memory      MemoryResult
	Exec        map[string]float64 // exec figures by execKey(args): median ms
	Telemetry   map[int]float64    // by workload rounds: CPU per round with telemetry on, % of off
	Skipped     map[string]string  // source → why it was not measured
	Peer        *IdleResult        // the peer's idle TUI in the same run; nil: PeerWhy says why
	PeerWhy     string
}

// peerValue returns the peer's figure for f (a tui-idle figure) in f's
// unit, or why there is none.
func (m Measurements) peerValue(f Budget) (float64, string) {
	if m.Peer == nil {
		return 0, cmpOr(m.PeerWhy, PeerNotAvailable)
	}
	if f.Metric == MetricWakeups {
		return m.Peer.WakeupsPerSec, ""
	}
	return m.Peer.CPUPct, ""
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// unitFactor converts a canonical value (milliseconds, bytes or percent) to
// unit.
func unitFactor(unit string) (float64, bool) {
	f, ok := map[string]float64{
		"ms": 1, "µs": 1000, "s": 1e-3,
		"MB": 1.0 / (1 << 20), "KB": 1.0 / (1 << 10), "B": 1,
		"%": 1, "": 1,
	}[unit]
	return f, ok
}

// Value returns figure f in its unit, or a short reason it is missing.
func (m Measurements) Value(f Budget) (float64, string) {
	v, why := m.canonical(f)
	if why != "" {
		return 0, why
	}
	k, _ := unitFactor(f.Unit)
	return v * k, ""
}

// canonical returns f's value in milliseconds, bytes or percent.
func (m Measurements) canonical(f Budget) (float64, string) {
	if why, ok := m.Skipped[f.Source]; ok {
		return 0, why
	}
	switch f.Source {
	case SourceKeelbench, SourceFloor:
		r, ok := m.Headless[f.Rounds]
		if f.Source == SourceFloor {
			r, ok = m.Floor[f.Rounds]
		}
		if !ok {
			return 0, "not run"
		}
		v, _ := r.Metric(f.Metric)
		return v, ""
	case SourceGoBench:
		unit := f.Metric
		if unit == "" {
			unit = "ns/op"
		}
		v, ok := LookupBench(m.Bench, f.Pkg, f.Bench, unit)
		if !ok {
			return 0, "no result in the go test output"
		}
		return v * toMs(unit), ""
	case SourceBinary:
		return m.BinaryBytes, ""
	case SourceTUIIdle:
		if f.Metric == MetricWakeups {
			return m.TUIIdle.WakeupsPerSec, ""
		}
		return m.TUIIdle.CPUPct, ""
	case SourceTUISession:
		v, _ := m.TUISession.Metric(f.Metric)
		return v, ""
	case SourceFirstPaint:
		v, _ := m.FirstPaint.Metric(f.Metric)
		return v, ""
	case SourceMemory:
		v, ok := m.Memory[f.Metric]
		if !ok {
			return 0, "not run"
		}
		return v, ""
	case SourceTelemetry:
		v, ok := m.Telemetry[f.Rounds]
		if !ok {
			return 0, "not run"
		}
		return v, ""
	case SourceExec:
		v, ok := m.Exec[execKey(f.Args)]
		if !ok {
			return 0, "not run"
		}
		return v, ""
	}
	return 0, "unknown source"
}

// toMs is the factor that turns a go test time unit into milliseconds:
// "ns/op" and custom metrics named like "gap-µs" or "wait-ms". Other
// units (bytes, counts) are returned as they are.
func toMs(unit string) float64 {
	switch {
	case strings.HasPrefix(unit, "ns/"), strings.HasSuffix(unit, "-ns"):
		return 1e-6
	case strings.HasSuffix(unit, "-µs"), strings.HasSuffix(unit, "-us"):
		return 1e-3
	}
	return 1
}
