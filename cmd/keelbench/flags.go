package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// options are the parsed command-line flags.
type options struct {
	keel         string
	rounds       int
	runs         int
	ttft         time.Duration
	chunkDelay   time.Duration
	json         bool
	tuiIdle      bool
	tuiSession   bool
	firstPaint   bool
	memory       bool
	memoryOnly   string
	suite        bool
	gobench      string
	budgets      string
	gotestArgs   bool
	strict       bool
	markdown     bool
	datalog      bool
	freshDatalog bool
	nullClient   bool
	exec         string
	peer         string
	baseline     string
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("keelbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.keel, "keel", "bin/keel", "the keel binary to measure")
	fs.IntVar(&o.rounds, "n", 20, "tool rounds in the workload")
	fs.IntVar(&o.runs, "runs", 3, "repetitions; each figure is the median over them")
	fs.DurationVar(&o.ttft, "ttft", 0, "simulated time to first token of each answer")
	fs.DurationVar(&o.chunkDelay, "chunk-delay", 0, "simulated delay between stream chunks")
	fs.BoolVar(&o.json, "json", false, "print the result as JSON")
	fs.BoolVar(&o.tuiIdle, "tui-idle", false, "measure the TUI's idle CPU in tmux instead of a headless run")
	fs.BoolVar(&o.tuiSession, "tui-session", false, "measure keel's memory after a 1,000-round session in the TUI (needs tmux)")
	fs.BoolVar(&o.firstPaint, "first-paint", false, "measure the TUI's first paint of a resumed 5,000-message session, and of a new one (needs tmux)")
	fs.BoolVar(&o.memory, "memory", false, "measure keel's peak RSS through a grep over a 2 GB file, a 50 MB write_file and an edit_file in a 50 MB file")
	fs.StringVar(&o.memoryOnly, "memory-only", "", "with -memory: only the figures whose name holds one of these comma-separated `words` (grep, write, edit)")
	fs.BoolVar(&o.suite, "suite", false, "measure every figure in -budgets and print the table")
	fs.StringVar(&o.gobench, "gobench", "", "with -suite: a file of `go test -bench` output (\"-\" for stdin)")
	fs.StringVar(&o.budgets, "budgets", "cmd/keelbench/budgets.json", "the budgets file")
	fs.BoolVar(&o.gotestArgs, "gotest-args", false, "print the -bench regexp and packages of the budgeted Go benchmarks")
	fs.BoolVar(&o.strict, "strict", false, "with -suite: exit 1 when a budget is missed")
	fs.BoolVar(&o.freshDatalog, "fresh-datalog", false, "start each run on a new datalog, as keel's first run on a machine (it creates the schema), instead of one an earlier run left")
	fs.BoolVar(&o.nullClient, "null-client", false, "diagnostic: run keelbench's null client in keel's place, a client that does nothing between rounds: the harness's own share of the gap")
	fs.BoolVar(&o.datalog, "datalog", true, "diagnostic: -datalog=false runs keel with its datalog off, to see what the datalog costs")
	fs.BoolVar(&o.markdown, "markdown", false, "with -suite: print the table as Markdown, with the peer column")
	fs.StringVar(&o.exec, "exec", "", "start keel with these `arguments` (split at spaces) to its exit, 31 times, and print the median wall time")
	fs.StringVar(&o.peer, "peer", "", "with -suite: the peer's binary (crush), whose idle TUI is measured beside keel's in the same run")
	fs.StringVar(&o.baseline, "baseline", "", "with -suite: also build this git `ref` (\"auto\": the previous release, docs/BENCHMARKS.md) and measure it in the same run")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("keelbench takes no arguments, only flags; got %q", strings.Join(fs.Args(), " "))
		fmt.Fprintln(stderr, "keelbench:", err)
		return o, err
	}
	return o, nil
}

// workload is the workload the flags describe.
func (o options) workload() Workload {
	return Workload{Rounds: o.rounds, TTFT: o.ttft, ChunkDelay: o.chunkDelay, NoDatalog: !o.datalog,
		FreshDatalog: o.freshDatalog, NullClient: o.nullClient}
}

// dispatch runs the mode the flags chose and returns the exit code.
func (o options) dispatch(ctx context.Context, stdout, stderr io.Writer) (int, error) {
	switch {
	case o.gotestArgs:
		b, err := LoadBudgets(o.budgets)
		if err != nil {
			return 1, err
		}
		fmt.Fprintln(stdout, strings.Join(b.GoTestArgs(), " "))
		return 0, nil
	case o.suite:
		return o.runSuite(ctx, stdout, stderr)
	case o.exec != "":
		ms, err := ExecMedian(ctx, o.keel, strings.Fields(o.exec), execRuns)
		if err != nil {
			return 1, err
		}
		return 0, o.print(stdout, map[string]float64{"median_ms": ms})
	case o.tuiSession:
		r, err := TUISession(ctx, o.keel, stderr)
		if err != nil {
			return 1, err
		}
		return 0, o.print(stdout, map[string]float64{"rounds": float64(r.Rounds), "rss_start_mb": r.RSSStartBytes / (1 << 20), "rss_end_mb": r.RSSEndBytes / (1 << 20),
			"rss_peak_mb": r.RSSPeakBytes / (1 << 20), "wall_ms": r.WallMs})
	case o.firstPaint:
		r, err := FirstPaint(ctx, o.keel, stderr)
		if err != nil {
			return 1, err
		}
		return 0, o.print(stdout, map[string]float64{"messages": float64(r.Messages), "resumed_ms": r.ResumedMs, "new_ms": r.NewMs, "record_wall_ms": r.RecordWall})
	case o.memory:
		r, err := Memory(ctx, o.keel, o.memoryOnly, stderr)
		if err != nil {
			return 1, err
		}
		mb := map[string]float64{}
		for k, v := range r {
			mb[strings.TrimSuffix(k, "_bytes")+"_mb"] = v / (1 << 20)
		}
		return 0, o.print(stdout, mb)
	case o.tuiIdle:
		return o.runTUIIdle(ctx, stdout, stderr)
	}
	if _, err := os.Stat(o.keel); err != nil && !o.nullClient {
		return 1, fmt.Errorf("no keel binary at %s: run make build first, or pass -keel", o.keel)
	}
	res, err := RunMedian(ctx, o.keel, o.workload(), o.runs)
	if err != nil {
		return 1, err
	}
	if o.json {
		return 0, o.print(stdout, res)
	}
	WriteReport(stdout, res, o.runs, o.nullClient)
	return 0, nil
}

// print writes v as indented JSON, or as key: value lines.
func (o options) print(w io.Writer, v any) error {
	if m, ok := v.(map[string]float64); ok && !o.json {
		for k, x := range m {
			fmt.Fprintf(w, "%s: %.3f\n", k, x)
		}
		return nil
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
