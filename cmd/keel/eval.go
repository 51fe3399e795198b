package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/cmd/keel/eval"
	"github.com/keel-dev/keel/internal/termtext"
)

// evalFlags are keel eval's own flags.
type evalFlags struct {
	runs     int
	a, b     string
	tasks    []string
	parallel int
	json     bool
	list     bool
	timeout  time.Duration
}

// evalLong is keel eval's help text.
const evalLong = `keel eval runs a bundled suite of small coding tasks against your configured
model, --runs times under setting A and under setting B, each run in a
temporary copy of the task's project (your files are never touched), checks
whether each run solved its task, and prints solved, tool calls, wasted calls
(repeats, rereads, failed calls), tokens, cost and interventions, each with a
95% interval, the difference B − A, and one line saying which setting did
better and whether the difference is significant.

A setting is config keys as key=value pairs separated by commas, applied over
your configuration: reflection_cadence, max_turns, max_tool_calls,
token_budget, plan.stall_threshold, discipline.* (reread, repeat_warn,
repeat_halt, error_streak, error_streak_halt, stall_calls, verify,
plan_continue, ...), and the shorthands guards=on|off (every discipline.*
threshold at its default, or off) and discipline=on|off (guards and the
cadence together). An empty setting is your configuration as it is.

Each task's own commands (for example go test) and edits are allowed inside
its copy and nowhere else; commands run in keel's sandbox.`

// evalCommand is `keel eval`: the A/B harness over the bundled suite.
func (a *app) evalCommand() *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "compare two discipline settings on a bundled suite of small tasks (A/B, with confidence intervals)",
		Long:  evalLong,
		Example: `  keel eval --runs 5                                   your settings (A) against discipline off (B)
  keel eval --a reflection_cadence=10 --b reflection_cadence=0
  keel eval --a guards=on --b guards=off --tasks config-fix,rename --runs 10
  keel eval --list                                     the bundled tasks
  keel eval --json > eval.json                         the report and every run as JSON`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runEval(cmd, f) },
	}
	fl := cmd.Flags()
	fl.IntVar(&f.runs, "runs", 5, "runs of each task under each setting")
	fl.StringVar(&f.a, "a", "", "setting A: key=value,... over your configuration (default: your configuration as it is)")
	fl.StringVar(&f.b, "b", "discipline=off", "setting B, same syntax")
	fl.StringSliceVar(&f.tasks, "tasks", nil, "run only these tasks, comma-separated (see --list)")
	fl.IntVar(&f.parallel, "parallel", 1, "runs at once")
	fl.BoolVar(&f.json, "json", false, "print the report, with every run, as JSON")
	fl.BoolVar(&f.list, "list", false, "list the bundled tasks and exit")
	fl.DurationVar(&f.timeout, "timeout", eval.DefaultTimeout, "stop a run after this long (it counts as unsolved)")
	return cmd
}

// evalPlan is a checked command line.
type evalPlan struct {
	tasks []*eval.Task
	a, b  eval.Settings
}

// checkEvalFlags turns bad input into one sentence and exit status 2.
func checkEvalFlags(f evalFlags) (evalPlan, error) {
	var p evalPlan
	switch {
	case f.runs < 1:
		return p, usageError(fmt.Errorf("--runs takes a number of 1 or more, not %d", f.runs))
	case f.parallel < 1:
		return p, usageError(fmt.Errorf("--parallel takes a number of 1 or more, not %d", f.parallel))
	case f.timeout <= 0:
		return p, usageError(fmt.Errorf("--timeout takes a positive duration such as 10m, not %s", f.timeout))
	}
	all, err := eval.Suite()
	if err != nil {
		return p, err
	}
	if p.tasks, err = eval.Select(all, f.tasks); err != nil {
		return p, usageError(fmt.Errorf("--tasks: %w", err))
	}
	if p.a, err = eval.ParseSettings(f.a); err != nil {
		return p, usageError(fmt.Errorf("--a: %w", err))
	}
	if p.b, err = eval.ParseSettings(f.b); err != nil {
		return p, usageError(fmt.Errorf("--b: %w", err))
	}
	return p, nil
}

// runEval checks the flags, runs the eval and prints the report.
func (a *app) runEval(cmd *cobra.Command, f evalFlags) error {
	p, err := checkEvalFlags(f)
	if err != nil {
		return err
	}
	if f.list {
		return a.listTasks(p.tasks)
	}
	cfg, err := a.loadConfig(cmd)
	if err != nil {
		return err
	}
	m, err := a.resolveModel(cfg, nil)
	if err != nil {
		return err
	}
	if notice := sandboxNotice(cfg); notice != "" {
		fmt.Fprintf(a.stderr, "keel: %s\n", notice)
	}
	total := f.runs * len(p.tasks) * 2
	done := 0
	defer a.evalLessons.close()
	results, err := eval.Run(cmd.Context(), eval.Options{
		Config: cfg, Tasks: p.tasks, Runs: f.runs, A: p.a, B: p.b,
		Parallel: f.parallel, Timeout: f.timeout,
		Build: a.evalBuilder(m), Command: checkRunner(cfg, m.secrets),
		Progress: func(r eval.RunResult) {
			done++
			fmt.Fprintln(a.stderr, progressLine(done, total, r))
		},
	})
	if errors.Is(err, context.Canceled) {
		return &exitError{code: exitCancelled, err: errors.New("the eval was cancelled; no report")}
	}
	if err != nil {
		return err
	}
	return a.printReport(eval.Summarize(m.model, p.tasks, f.runs, p.a, p.b, results), f.json)
}

// printReport writes the table, or the JSON report with --json.
func (a *app) printReport(rep *eval.Report, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(termtext.NewJSONWriter(a.stdout))
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteText(termtext.NewWriter(a.stdout))
}

// progressLine is one finished run, for stderr.
func progressLine(done, total int, r eval.RunResult) string {
	verdict := "solved"
	if !r.Solved {
		verdict = "not solved"
	}
	return fmt.Sprintf("keel eval: [%d/%d] %s %s run %d: %s · %s · %d calls, %d wasted · %d tokens",
		done, total, r.Task, r.Arm, r.Run, verdict, r.StopReason, r.ToolCalls, r.Wasted, r.Tokens)
}

// listTasks prints the bundled tasks, one a line.
func (a *app) listTasks(tasks []*eval.Task) error {
	w := termtext.NewWriter(a.stdout)
	for _, t := range tasks {
		if _, err := fmt.Fprintf(w, "%-14s %s\n", t.Name, t.Title); err != nil {
			return err
		}
	}
	return nil
}
