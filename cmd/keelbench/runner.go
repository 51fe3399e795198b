package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// Result is what one headless run of keel measured. Times are in
// milliseconds, sizes in bytes.
type Result struct {
	Rounds           int     `json:"rounds"`
	StartMs          float64 `json:"start_ms"`      // process start → first request received
	GapMedianMs      float64 `json:"gap_median_ms"` // end of a response → next request
	GapP90Ms         float64 `json:"gap_p90_ms"`
	GapMaxMs         float64 `json:"gap_max_ms"`
	WallMs           float64 `json:"wall_ms"` // process start → exit
	CPUMs            float64 `json:"cpu_ms"`  // user+sys of the child
	CPUPerRoundMs    float64 `json:"cpu_per_round_ms"`
	MaxRSSBytes      float64 `json:"max_rss_bytes"`
	LastRequestBytes float64 `json:"last_request_bytes"`
	DatalogBytes     float64 `json:"datalog_bytes"` // keel.db plus any -wal left behind, less the seed's
	Requests         int     `json:"requests"`
	StopReason       string  `json:"stop_reason"`
}

// headlessOutput is the part of keel's --output-format json object read here.
type headlessOutput struct {
	StopReason string `json:"stop_reason"`
	Turns      int    `json:"turns"`
	ToolCalls  int    `json:"tool_calls"`
}

// RunOnce runs bin/keel headless against a fresh fake server and project.
func RunOnce(ctx context.Context, keel string, w Workload) (Result, error) {
	keel, err := filepath.Abs(keel) // the child runs in the project dir
	if err != nil {
		return Result{}, fmt.Errorf("resolve %s: %w", keel, err)
	}
	d, err := makeDirs(w.NoDatalog)
	defer os.RemoveAll(d.Root)
	if err != nil {
		return Result{}, err
	}
	if w.seed != "" {
		if err := copyDir(w.seed, filepath.Dir(d.Datalog())); err != nil {
			return Result{}, fmt.Errorf("copy the seed datalog: %w", err)
		}
	}
	return runIn(ctx, keel, w, d)
}

// runIn runs keel (an absolute path) headless in d against a new fake
// server and measures the run.
func runIn(ctx context.Context, keel string, w Workload, d Dirs) (Result, error) {
	srv := llmtest.NewServer(w.Script())
	defer srv.Close()

	cmd := exec.CommandContext(ctx, keel, "-p", w.Prompt(), "--yolo", "--output-format", "json")
	if w.NullClient {
		self, err := os.Executable()
		if err != nil {
			return Result{}, fmt.Errorf("find keelbench for the null client: %w", err)
		}
		cmd = exec.CommandContext(ctx, self, nullClientArg)
	}
	cmd.Dir, cmd.Env = d.Project, d.env(srv.URL(), w.OTLP)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	resetPeakRSS()
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return Result{}, fmt.Errorf("keel failed (%v): %s", err, lastLine(stderr.String()))
	}
	var out headlessOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return Result{}, fmt.Errorf("keel's output is not one JSON object: %w", err)
	}
	if out.StopReason != "completed" || out.ToolCalls != w.Rounds {
		return Result{}, fmt.Errorf("keel stopped with %q after %d tool calls, want completed after %d", out.StopReason, out.ToolCalls, w.Rounds)
	}
	res := measure(srv.Requests(), start, w.Rounds)
	res.WallMs, res.StopReason = ms(wall), out.StopReason
	addRusage(&res, cmd.ProcessState)
	res.DatalogBytes = float64(datalogSize(d.Datalog()))
	if w.seed != "" {
		res.DatalogBytes -= float64(datalogSize(filepath.Join(w.seed, filepath.Base(d.Datalog()))))
	}
	return res, nil
}

// measure computes the timing figures from the server's record.
func measure(reqs []llmtest.RecordedRequest, start time.Time, rounds int) Result {
	res := Result{Rounds: rounds, Requests: len(reqs)}
	if len(reqs) == 0 {
		return res
	}
	res.StartMs = ms(reqs[0].ReceivedAt.Sub(start))
	gaps := Gaps(reqs)
	res.GapMedianMs, res.GapP90Ms, res.GapMaxMs = Median(gaps), Percentile(gaps, 90), Max(gaps)
	res.LastRequestBytes = float64(len(reqs[len(reqs)-1].Body))
	return res
}

// addRusage fills CPU and memory from the exited child's resource usage.
func addRusage(res *Result, ps *os.ProcessState) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	res.CPUMs = ms(cpu)
	if res.Rounds > 0 {
		res.CPUPerRoundMs = res.CPUMs / float64(res.Rounds)
	}
	res.MaxRSSBytes = float64(ru.Maxrss) * 1024 // Linux reports KiB
}

// datalogSize is the database's size with its write-ahead log.
func datalogSize(path string) int64 { return fileSize(path) + fileSize(path+"-wal") }

// fileSize is the size of path, or 0 when it does not exist.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// lastLine is the last non-empty line of s, for short error messages.
func lastLine(s string) string {
	lines := bytes.Split(bytes.TrimSpace([]byte(s)), []byte("\n"))
	return string(lines[len(lines)-1])
}

// RunMedian runs the workload runs times and returns each figure's median.
func RunMedian(ctx context.Context, keel string, w Workload, runs int) (Result, error) {
	if runs < 1 {
		return Result{}, errors.New("-runs must be 1 or more")
	}
	if !w.NoDatalog && !w.FreshDatalog && !w.NullClient && w.seed == "" {
		seed, err := seedDatalog(ctx, keel)
		defer os.RemoveAll(seed)
		if err != nil {
			return Result{}, err
		}
		w.seed = seed
	}
	var all []Result
	for range runs {
		r, err := RunOnce(ctx, keel, w)
		if err != nil {
			return Result{}, err
		}
		all = append(all, r)
	}
	return medianResult(all), nil
}

// resetPeakRSS shrinks this process and resets its peak RSS. Go starts a
// child with vfork semantics, and Linux folds the parent's peak RSS into
// the child's ru_maxrss at exec; without this, a child started after a
// 400-round run would report keelbench's own memory (the previous fake
// server's records, ~250 MB), not keel's. Those records stay reachable for
// a moment after Close while the server's goroutines exit, so the heap is
// freed again until it is small.
func resetPeakRSS() {
	var ms runtime.MemStats
	for range 50 {
		debug.FreeOSMemory()
		if runtime.ReadMemStats(&ms); ms.HeapAlloc < 32<<20 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // Linux ≥ 4.0; elsewhere a no-op
}
