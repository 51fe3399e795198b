// Command keelbench measures what keel itself costs while a model works:
// it runs a built bin/keel headless against the fake OpenAI-compatible
// server of agent/llmtest with a scripted workload (N rounds, each one
// read_file of one of ten small files, then a final answer) and reports
// start-up time, the gap between rounds, CPU, memory, request size and
// datalog size. With -suite it also reads `go test -bench` output, the
// binary size, the TUI's idle CPU and wake-ups and the wall time of short
// command lines (keel --version, the sandbox helper), checks every figure against
// cmd/keelbench/budgets.json and prints one table.
//
// Usage:
//
//	keelbench -keel bin/keel -n 20 -runs 3          one workload, a report
//	keelbench -gotest-args                          arguments for go test -bench
//	keelbench -suite -gobench bin/gobench.txt       the whole table (make bench)
//	keelbench -tui-idle                             the TUI's idle CPU and wake-ups alone
//	keelbench -exec --version                       median wall time of a keel command line
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == nullClientArg {
		if err := runNullClient(os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "keelbench null client: %v\n", err)
			os.Exit(1)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run parses flags, runs the chosen mode and returns the exit code: 0 ok,
// 1 a failure (or a failed budget with -strict), 2 bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return 2
	}
	code, err := o.dispatch(ctx, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "keelbench: %v\n", err)
		return 1
	}
	return code
}
