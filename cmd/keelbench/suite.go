package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// runSuite measures every figure of the budgets file and prints the table;
// with -baseline it measures the baseline build too (the Go benchmarks
// excepted: they are keel's packages, not the binary) and prints its column.
func (o options) runSuite(ctx context.Context, stdout, stderr io.Writer) (int, error) {
	b, err := LoadBudgets(o.budgets)
	if err != nil {
		return 1, err
	}
	if _, err := os.Stat(o.keel); err != nil {
		return 1, fmt.Errorf("no keel binary at %s: run make build first, or pass -keel", o.keel)
	}
	ref, err := resolveBaseline(ctx, o.baseline, b)
	if err != nil {
		return 1, err
	}
	bins := []string{o.keel}
	if ref != "" {
		bin, cleanup, err := BuildBaseline(ctx, ref, stderr)
		if err != nil {
			return 1, err
		}
		defer cleanup()
		bins = append(bins, bin)
	}
	all, err := o.measure(ctx, bins, b, stderr)
	if err != nil {
		return 1, err
	}
	m := all[0]
	var base *Measurements
	if ref != "" {
		base = &all[1]
		base.Skipped[SourceGoBench] = "Go benchmarks: keel's packages only"
	}
	if err := o.readGoBench(b, &m); err != nil {
		return 1, err
	}
	label := ""
	if ref != "" {
		label = "baseline " + ref
	}
	return o.printSuite(stdout, Evaluate(b, m, base), label)
}

// measure runs every figure but the Go benchmarks against each keel
// binary. The binaries take turns figure by figure, so a machine whose
// speed drifts over the minutes of a suite moves their columns alike.
func (o options) measure(ctx context.Context, bins []string, b Budgets, stderr io.Writer) ([]Measurements, error) {
	all := make([]Measurements, len(bins))
	for i, keel := range bins {
		fi, err := os.Stat(keel)
		if err != nil {
			return nil, fmt.Errorf("no keel binary at %s", keel)
		}
		all[i] = Measurements{Headless: map[int]Result{}, Floor: map[int]Result{}, Exec: map[string]float64{}, Telemetry: map[int]float64{},
			Skipped: map[string]string{}, BinaryBytes: float64(fi.Size())}
	}
	runs := b.Runs
	if runs < 1 {
		runs = o.runs
	}
	each := func(what string, f func(keel string, m *Measurements) error) error {
		for i, keel := range bins {
			fmt.Fprintf(stderr, "keelbench: %s: %s\n", keel, what)
			if err := f(keel, &all[i]); err != nil {
				return fmt.Errorf("%s: %s: %w", keel, what, err)
			}
		}
		return nil
	}
	for _, n := range b.RoundCounts(SourceKeelbench) {
		w := o.workload()
		w.Rounds = n
		err := each(fmt.Sprintf("%d rounds × %d runs", n, runs), func(keel string, m *Measurements) error {
			r, err := RunMedian(ctx, keel, w, runs)
			m.Headless[n] = r
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	for _, n := range b.RoundCounts(SourceFloor) {
		w := o.workload()
		w.Rounds, w.NullClient = n, true
		err := each(fmt.Sprintf("the null client, %d rounds × %d runs", n, runs), func(keel string, m *Measurements) error {
			r, err := RunMedian(ctx, keel, w, runs)
			m.Floor[n] = r
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if err := o.measureTelemetry(ctx, bins, all, b, stderr); err != nil {
		return nil, err
	}
	for _, args := range b.ExecArgs() {
		err := each(fmt.Sprintf("keel %s × %d", execKey(args), execRuns), func(keel string, m *Measurements) error {
			v, err := ExecMedian(ctx, keel, args, execRuns)
			m.Exec[execKey(args)] = v
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	o.measureIdle(ctx, bins, all, b, stderr)
	for i, keel := range bins {
		o.keel = keel
		if b.Needs(SourceTUISession) {
			o.measureTUISession(ctx, &all[i], stderr)
		}
	}
	for i, keel := range bins {
		o.keel = keel
		if b.Needs(SourceFirstPaint) {
			o.measureFirstPaint(ctx, &all[i], stderr)
		}
	}
	for i, keel := range bins {
		if b.Needs(SourceMemory) {
			o.measureMemory(ctx, keel, &all[i], stderr)
		}
	}
	return all, nil
}

// readGoBench loads the go test output named by -gobench, or marks the Go
// benchmark figures as skipped when there is none.
func (o options) readGoBench(b Budgets, m *Measurements) error {
	if !b.Needs(SourceGoBench) {
		return nil
	}
	if o.gobench == "" {
		m.Skipped[SourceGoBench] = "no -gobench output given"
		return nil
	}
	in := io.Reader(os.Stdin)
	if o.gobench != "-" {
		f, err := os.Open(o.gobench)
		if err != nil {
			return fmt.Errorf("open the go test output: %w", err)
		}
		defer f.Close()
		in = f
	}
	lines, err := ParseGoBench(in)
	m.Bench = lines
	return err
}

// idleRuns is how many samples of each idle TUI are taken, keel's and the
// peer's alternately, when the table compares them: one sample differs
// from the next by up to 10 %, as much as keel and the peer differ.
const idleRuns = 3

// measureIdle fills the TUI idle figures of every build and the peer's,
// each the median of its samples, taken in turn so a change in the
// machine's load reaches them all.
func (o options) measureIdle(ctx context.Context, bins []string, all []Measurements, b Budgets, stderr io.Writer) {
	if !b.Needs(SourceTUIIdle) {
		return
	}
	runs := 1
	if o.peer != "" && b.NeedsPeer() {
		runs = idleRuns
	}
	samples := make([][]IdleResult, len(bins))
	var peer []IdleResult
	for range runs {
		for i, keel := range bins {
			o.keel = keel
			if idle, ok := o.measureTUIIdle(ctx, &all[i], stderr); ok {
				samples[i] = append(samples[i], idle)
			}
		}
		if b.NeedsPeer() { // right after keel's, on the machine as it is then
			if idle, ok := o.measurePeerIdle(ctx, &all[0], stderr); ok {
				peer = append(peer, idle)
			}
		}
	}
	for i := range bins {
		if len(samples[i]) > 0 {
			all[i].TUIIdle = medianIdle(samples[i])
			delete(all[i].Skipped, SourceTUIIdle)
		}
	}
	if len(peer) > 0 {
		p := medianIdle(peer)
		all[0].Peer, all[0].PeerWhy = &p, ""
	}
}

// medianIdle is the median of each figure of the samples.
func medianIdle(samples []IdleResult) IdleResult {
	var cpu, wakes []float64
	for _, s := range samples {
		cpu, wakes = append(cpu, s.CPUPct), append(wakes, s.WakeupsPerSec)
	}
	return IdleResult{CPUPct: Median(cpu), WakeupsPerSec: Median(wakes)}
}

// measureTUIIdle takes one sample of the idle TUI, or records why it was
// skipped; a TUI that cannot be measured does not stop the rest of the
// table.
func (o options) measureTUIIdle(ctx context.Context, m *Measurements, stderr io.Writer) (IdleResult, bool) {
	fmt.Fprintf(stderr, "keelbench: TUI idle CPU (%s settle, %s sample)\n", idleSettle, idleSample)
	idle, err := TUIIdle(ctx, o.keel, stderr)
	switch {
	case errors.Is(err, ErrNoTmux):
		m.Skipped[SourceTUIIdle] = "tmux is not installed"
	case err != nil:
		fmt.Fprintf(stderr, "keelbench: TUI idle: %v\n", err)
		m.Skipped[SourceTUIIdle] = "the TUI run failed (see above)"
	default:
		return idle, true
	}
	return IdleResult{}, false
}

// measureTUISession fills the TUI session figures, or records why they
// were skipped, like measureTUIIdle.
func (o options) measureTUISession(ctx context.Context, m *Measurements, stderr io.Writer) {
	fmt.Fprintf(stderr, "keelbench: TUI session (%d tasks × %d rounds)\n", sessionTasks, sessionRoundsPerTask)
	r, err := TUISession(ctx, o.keel, stderr)
	switch {
	case errors.Is(err, ErrNoTmux):
		m.Skipped[SourceTUISession] = "tmux is not installed"
	case err != nil:
		fmt.Fprintf(stderr, "keelbench: TUI session: %v\n", err)
		m.Skipped[SourceTUISession] = "the TUI session failed (see above)"
	default:
		m.TUISession = r
	}
}

// measureFirstPaint fills the first-paint figures, or records why they
// were skipped, like measureTUIIdle.
func (o options) measureFirstPaint(ctx context.Context, m *Measurements, stderr io.Writer) {
	r, err := FirstPaint(ctx, o.keel, stderr)
	switch {
	case errors.Is(err, ErrNoTmux):
		m.Skipped[SourceFirstPaint] = "tmux is not installed"
	case err != nil:
		fmt.Fprintf(stderr, "keelbench: first paint: %v\n", err)
		m.Skipped[SourceFirstPaint] = "the first-paint run failed (see above)"
	default:
		m.FirstPaint = r
	}
}

// measureMemory fills the memory figures, or records why they were
// skipped, like measureTUIIdle.
func (o options) measureMemory(ctx context.Context, keel string, m *Measurements, stderr io.Writer) {
	r, err := Memory(ctx, keel, "", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "keelbench: memory: %v\n", err)
		m.Skipped[SourceMemory] = "the memory runs failed (see above)"
		return
	}
	m.Memory = r
}

// printSuite prints the table and a summary; with -strict a missed budget
// makes the exit code 1.
func (o options) printSuite(w io.Writer, rows []Row, baseline string) (int, error) {
	write := WriteTable
	if o.markdown {
		write = WriteMarkdown
	}
	if err := write(w, rows, baseline); err != nil {
		return 1, err
	}
	failed, budgeted := Failed(rows), 0
	for _, r := range rows {
		if r.Status == StatusPass || r.Status == StatusFail {
			budgeted++
		}
	}
	fmt.Fprintf(w, "\n%d of %d budgets met", budgeted-failed, budgeted)
	if failed > 0 {
		fmt.Fprintf(w, "; %d missed (FAIL rows)", failed)
	}
	fmt.Fprintln(w)
	if failed > 0 && o.strict {
		return 1, nil
	}
	return 0, nil
}
