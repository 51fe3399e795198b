package main

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestEvaluateExecAndWakeups(t *testing.T) {
	m := Measurements{
		Exec:    map[string]float64{"--version": 6.5},
		TUIIdle: IdleResult{CPUPct: 0.05, WakeupsPerSec: 1.5},
	}
	cases := []struct {
		name           string
		f              Budget
		measured, stat string
	}{
		{"exec under budget", Budget{Max: ptr(10), Unit: "ms", Source: SourceExec, Args: []string{"--version"}}, "6.5 ms", StatusPass},
		{"exec not run", Budget{Max: ptr(10), Unit: "ms", Source: SourceExec, Args: []string{"help"}}, "n/a: not run", StatusSkip},
		{"idle CPU", Budget{Max: ptr(0.1), Unit: "%", Source: SourceTUIIdle}, "0.050 %", StatusPass},
		{"idle wake-ups", Budget{Unit: "", Source: SourceTUIIdle, Metric: MetricWakeups}, "1.5", StatusInfo},
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

func TestExecArgsAndChecks(t *testing.T) {
	b := Budgets{Figures: []Budget{
		{Source: SourceExec, Args: []string{"--version"}},
		{Source: SourceExec, Args: []string{"__keel-sandbox", "{}", "--", "true"}},
		{Source: SourceExec, Args: []string{"--version"}},
		{Source: SourceBinary},
	}}
	if got := b.ExecArgs(); len(got) != 2 || execKey(got[1]) != "__keel-sandbox {} -- true" {
		t.Errorf("ExecArgs = %q, want the two distinct command lines", got)
	}
	for _, c := range []struct {
		f    Budget
		want string
	}{
		{Budget{Unit: "ms", Source: SourceExec}, "needs args"},
		{Budget{Unit: "%", Source: SourceTUIIdle, Metric: "vibes"}, "metric"},
	} {
		if err := c.f.check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("check(%+v) = %v, want an error mentioning %q", c.f, err, c.want)
		}
	}
	repo, err := LoadBudgets("budgets.json")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(repo.ExecArgs(), func(a []string) bool { return slices.Equal(a, []string{"--version"}) }) {
		t.Errorf("cmd/keelbench/budgets.json has no keel --version figure: %q", repo.ExecArgs())
	}
}

func TestProcWakeupsOfThisProcess(t *testing.T) {
	n, err := ProcWakeups(os.Getpid())
	if err != nil {
		t.Skipf("no schedstat here: %v", err)
	}
	time.Sleep(20 * time.Millisecond) // sleeping and waking is a wake-up
	m, err := ProcWakeups(os.Getpid())
	if err != nil || m <= n {
		t.Errorf("wake-ups %d then %d (%v); want a larger count after a sleep", n, m, err)
	}
}

// TestExecMedian starts the real binary; it checks the figure is there,
// never how fast it is.
func TestExecMedian(t *testing.T) {
	keel := builtKeel(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ms, err := ExecMedian(ctx, keel, []string{"--version"}, 3)
	if err != nil || ms <= 0 {
		t.Errorf("ExecMedian = %v, %v", ms, err)
	}
	if _, err := ExecMedian(ctx, keel, []string{"--no-such-flag"}, 1); err == nil {
		t.Error("a failing command line gave no error")
	}
}
