package main

import (
	"bytes"
	"strings"
	"testing"
)

func ptr(v float64) *float64 { return &v }

func TestEvaluate(t *testing.T) {
	m := Measurements{
		Headless: map[int]Result{20: {StartMs: 12, MaxRSSBytes: 30 << 20}},
		Bench: []BenchLine{
			{Pkg: "github.com/keel-dev/keel/agent/datalog", Name: "BenchmarkWriteRound-2", Values: map[string]float64{"ns/op": 320492}},
			{Pkg: "github.com/keel-dev/keel/agent", Name: "BenchmarkRoundOverhead-2", Values: map[string]float64{"gap-µs": 450}},
		},
		BinaryBytes: 22 << 20,
		Skipped:     map[string]string{SourceTUIIdle: "tmux is not installed"},
	}
	cases := []struct {
		name           string
		f              Budget
		measured, stat string
	}{
		{"under budget", Budget{Figure: "start", Max: ptr(30), Unit: "ms", Source: SourceKeelbench, Rounds: 20, Metric: "start_ms"}, "12.0 ms", StatusPass},
		{"over budget", Budget{Figure: "start", Max: ptr(10), Unit: "ms", Source: SourceKeelbench, Rounds: 20, Metric: "start_ms"}, "12.0 ms", StatusFail},
		{"equal is a pass", Budget{Figure: "rss", Max: ptr(30), Unit: "MB", Source: SourceKeelbench, Rounds: 20, Metric: "max_rss_bytes"}, "30.0 MB", StatusPass},
		{"ns/op to µs", Budget{Figure: "w", Max: ptr(1000), Unit: "µs", Source: SourceGoBench, Bench: "BenchmarkWriteRound", Pkg: "./agent/datalog"}, "320 µs", StatusPass},
		{"ns/op to ms", Budget{Figure: "w", Max: ptr(0.2), Unit: "ms", Source: SourceGoBench, Bench: "BenchmarkWriteRound", Pkg: "./agent/datalog"}, "0.320 ms", StatusFail},
		{"custom µs metric", Budget{Figure: "gap", Max: ptr(1), Unit: "ms", Source: SourceGoBench, Bench: "BenchmarkRoundOverhead", Pkg: "./agent", Metric: "gap-µs"}, "0.450 ms", StatusPass},
		{"no budget is info", Budget{Figure: "bin", Unit: "MB", Source: SourceBinary}, "22.0 MB", StatusInfo},
		{"workload not run", Budget{Figure: "g", Max: ptr(3), Unit: "ms", Source: SourceKeelbench, Rounds: 400, Metric: "gap_median_ms"}, "n/a: not run", StatusSkip},
		{"skipped source", Budget{Figure: "idle", Max: ptr(0.2), Unit: "%", Source: SourceTUIIdle}, "n/a: tmux is not installed", StatusSkip},
		{"missing benchmark", Budget{Figure: "x", Max: ptr(1), Unit: "ms", Source: SourceGoBench, Bench: "BenchmarkNope", Pkg: "./ui"}, "n/a: no result in the go test output", StatusSkip},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows := Evaluate(Budgets{Figures: []Budget{c.f}}, m, nil)
			if len(rows) != 1 || rows[0].Measured != c.measured || rows[0].Status != c.stat {
				t.Errorf("row = %+v, want measured %q status %s", rows, c.measured, c.stat)
			}
		})
	}
}

func TestWithUnit(t *testing.T) {
	cases := []struct {
		v    float64
		unit string
		want string
	}{
		{0, "ms", "0 ms"},
		{0.107, "ms", "0.107 ms"},
		{29.57, "ms", "29.6 ms"},
		{1098.7, "ms", "1099 ms"},
		{0.15, "%", "0.150 %"},
		{3, "", "3.0"},
	}
	for _, c := range cases {
		if got := withUnit(c.v, c.unit); got != c.want {
			t.Errorf("withUnit(%v, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
}

var sampleRows = []Row{
	{Figure: "process start → first LLM request", Peer: "150–230 ms", Budget: "≤ 30 ms", Measured: "95.0 ms", Status: StatusFail},
	{Figure: "max RSS", Budget: "≤ 40 MB", Measured: "30.2 MB", Status: StatusPass},
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable(&b, sampleRows, ""); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "figure") {
		t.Fatalf("table = %q", b.String())
	}
	// Columns line up, counted in runes ("→" and "≤" are one cell each).
	col := runeIndex(lines[0], "budget")
	if runeIndex(lines[1], "≤ 30 ms") != col || runeIndex(lines[2], "≤ 40 MB") != col {
		t.Errorf("budget column is not aligned:\n%s", b.String())
	}
	for _, want := range []string{"≤ 30 ms", "95.0 ms", "FAIL", "30.2 MB", "PASS"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, sampleRows, ""); err != nil {
		t.Fatal(err)
	}
	want := "| figure | peer (crush v0.90.0) | keel budget | keel measured | result |\n" +
		"|---|---|---|---|---|\n" +
		"| process start → first LLM request | 150–230 ms | ≤ 30 ms | 95.0 ms | FAIL |\n" +
		"| max RSS | — | ≤ 40 MB | 30.2 MB | PASS |\n"
	if b.String() != want {
		t.Errorf("markdown =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestPrintSuiteSummaryAndStrict(t *testing.T) {
	for _, strict := range []bool{false, true} {
		var b bytes.Buffer
		code, err := options{strict: strict}.printSuite(&b, sampleRows, "")
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{false: 0, true: 1}[strict]; code != want {
			t.Errorf("strict=%v: exit %d, want %d", strict, code, want)
		}
		if !strings.Contains(b.String(), "1 of 2 budgets met; 1 missed") {
			t.Errorf("summary missing:\n%s", b.String())
		}
	}
}

func runeIndex(s, sub string) int {
	i := strings.Index(s, sub)
	if i < 0 {
		return -1
	}
	return len([]rune(s[:i]))
}
