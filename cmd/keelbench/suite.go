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
	var base *Measurements
	if ref != "" {
		bin, cleanup, err := BuildBaseline(ctx, ref, stderr)
		if err != nil {
			return 1, err
		}
		defer cleanup()
		fmt.Fprintf(stderr, "keelbench: measuring the baseline %s\n", ref)
		bm, err := o.measure(ctx, bin, b, stderr)
		if err != nil {
			return 1, fmt.Errorf("the baseline %s: %w", ref, err)
		}
		bm.Skipped[SourceGoBench] = "Go benchmarks: keel's packages only"
		base = &bm
	}
	fmt.Fprintf(stderr, "keelbench: measuring %s\n", o.keel)
	m, err := o.measure(ctx, o.keel, b, stderr)
	if err != nil {
		return 1, err
	}
	if err := o.readGoBench(b, &m); err != nil {
		return 1, err
	}
	if b.NeedsPeer() {
		o.measurePeerIdle(ctx, &m, stderr)
	}
	label := ""
	if ref != "" {
		label = "baseline " + ref
	}
	return o.printSuite(stdout, Evaluate(b, m, base), label)
}

// measure runs every figure but the Go benchmarks against the keel binary.
func (o options) measure(ctx context.Context, keel string, b Budgets, stderr io.Writer) (Measurements, error) {
	fi, err := os.Stat(keel)
	if err != nil {
		return Measurements{}, fmt.Errorf("no keel binary at %s", keel)
	}
	o.keel = keel
	m := Measurements{Headless: map[int]Result{}, Floor: map[int]Result{}, Exec: map[string]float64{}, Skipped: map[string]string{}, BinaryBytes: float64(fi.Size())}
	runs := b.Runs
	if runs < 1 {
		runs = o.runs
	}
	for _, n := range b.RoundCounts(SourceKeelbench) {
		fmt.Fprintf(stderr, "keelbench: %d rounds × %d runs\n", n, runs)
		w := o.workload()
		w.Rounds = n
		r, err := RunMedian(ctx, keel, w, runs)
		if err != nil {
			return m, fmt.Errorf("the %d-round workload: %w", n, err)
		}
		m.Headless[n] = r
	}
	for _, n := range b.RoundCounts(SourceFloor) {
		fmt.Fprintf(stderr, "keelbench: the null client, %d rounds × %d runs\n", n, runs)
		w := o.workload()
		w.Rounds, w.NullClient = n, true
		r, err := RunMedian(ctx, keel, w, runs)
		if err != nil {
			return m, fmt.Errorf("the null client's %d-round workload: %w", n, err)
		}
		m.Floor[n] = r
	}
	for _, args := range b.ExecArgs() {
		fmt.Fprintf(stderr, "keelbench: keel %s × %d\n", execKey(args), execRuns)
		v, err := ExecMedian(ctx, keel, args, execRuns)
		if err != nil {
			return m, err
		}
		m.Exec[execKey(args)] = v
	}
	if b.Needs(SourceTUIIdle) {
		o.measureTUIIdle(ctx, &m, stderr)
	}
	if b.Needs(SourceTUISession) {
		o.measureTUISession(ctx, &m, stderr)
	}
	if b.Needs(SourceFirstPaint) {
		o.measureFirstPaint(ctx, &m, stderr)
	}
	return m, nil
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

// measureTUIIdle fills the TUI figure, or records why it was skipped; a TUI
// that cannot be measured does not stop the rest of the table.
func (o options) measureTUIIdle(ctx context.Context, m *Measurements, stderr io.Writer) {
	fmt.Fprintf(stderr, "keelbench: TUI idle CPU (%s settle, %s sample)\n", idleSettle, idleSample)
	idle, err := TUIIdle(ctx, o.keel, stderr)
	switch {
	case errors.Is(err, ErrNoTmux):
		m.Skipped[SourceTUIIdle] = "tmux is not installed"
	case err != nil:
		fmt.Fprintf(stderr, "keelbench: TUI idle: %v\n", err)
		m.Skipped[SourceTUIIdle] = "the TUI run failed (see above)"
	default:
		m.TUIIdle = idle
	}
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
