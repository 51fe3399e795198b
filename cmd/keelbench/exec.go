package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// execRuns is how many times an exec figure starts keel; the figure is the
// median, so a few starts slowed by other work on the machine do not count.
const execRuns = 31

// execKey names an exec figure's command line in Measurements.Exec.
func execKey(args []string) string { return strings.Join(args, " ") }

// ExecMedian starts keel with args runs times, each run to its exit, in a
// fresh temp home and project (the same environment as the workload, no
// model server), and returns the median wall time in milliseconds from
// just before the start to the exit, as a caller such as a shell (or keel
// starting its sandbox helper) sees it.
func ExecMedian(ctx context.Context, keel string, args []string, runs int) (float64, error) {
	keel, err := filepath.Abs(keel) // the runs start in the temp project
	if err != nil {
		return 0, fmt.Errorf("resolve %s: %w", keel, err)
	}
	d, err := makeDirs(false)
	defer os.RemoveAll(d.Root)
	if err != nil {
		return 0, err
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", os.DevNull, err)
	}
	defer null.Close()
	times := make([]float64, 0, runs)
	for range runs {
		var stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, keel, args...)
		cmd.Dir, cmd.Env = d.Project, d.env("", "")
		cmd.Stdout, cmd.Stderr = null, &stderr
		start := time.Now()
		err := cmd.Run()
		elapsed := time.Since(start)
		if err != nil {
			return 0, fmt.Errorf("keel %s: %w: %s", execKey(args), err, strings.TrimSpace(stderr.String()))
		}
		times = append(times, float64(elapsed)/float64(time.Millisecond))
	}
	return Median(times), nil
}
