package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/keel-dev/keel/agent/llmtest"
)

// The memory figures: keel's peak RSS (the kernel's ru_maxrss of the
// process and the children it waited for, rg included) through a task
// whose one tool call touches a large input. Memory must not follow the
// input's size (issue 26: grep over a 2 GB file peaked at 2.1 GB, a 50 MB
// write at 1.07 GB).
const (
	MetricGrepRSS  = "grep_2gb_rss_bytes"   // grep over a workspace holding a 2 GB text file
	MetricWriteRSS = "write_50mb_rss_bytes" // write_file of 50 MB of content
	MetricEditRSS  = "edit_50mb_rss_bytes"  // edit_file of one line in a 50 MB file
)

// memoryScenarios are the figures and their sizes.
var memoryScenarios = []struct {
	metric string
	run    func(ctx context.Context, keel string, d Dirs) (float64, error)
}{
	{MetricGrepRSS, grepScenario},
	{MetricWriteRSS, writeScenario},
	{MetricEditRSS, editScenario},
}

// MemoryResult is the peak RSS of each scenario, in bytes.
type MemoryResult map[string]float64

// Metric returns one scenario's figure.
func (r MemoryResult) Metric(name string) (float64, bool) {
	for _, s := range memoryScenarios {
		if s.metric == name {
			return r[name], true
		}
	}
	return 0, false
}

// Memory runs every scenario once (or those whose metric contains one of
// only's comma-separated words), each in fresh directories.
func Memory(ctx context.Context, keel, only string, log io.Writer) (MemoryResult, error) {
	keel, err := filepath.Abs(keel)
	if err != nil {
		return nil, err
	}
	res := MemoryResult{}
	for _, s := range memoryScenarios {
		if !chosen(s.metric, only) {
			continue
		}
		fmt.Fprintf(log, "keelbench: memory: %s\n", s.metric)
		d, err := makeDirs(false)
		if err != nil {
			os.RemoveAll(d.Root)
			return nil, err
		}
		v, err := s.run(ctx, keel, d)
		os.RemoveAll(d.Root)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.metric, err)
		}
		res[s.metric] = v
	}
	return res, nil
}

// chosen reports whether metric is among only's words (all when empty).
func chosen(metric, only string) bool {
	if only == "" {
		return true
	}
	for _, w := range strings.Split(only, ",") {
		if w != "" && strings.Contains(metric, w) {
			return true
		}
	}
	return false
}

// grepBytes is the size of the grep scenario's file: 2 GB of text lines,
// written for real (a sparse file reads as NULs, which grep skips as
// binary at its first block), one in 4,096 lines holding the match.
const grepBytes = 2 << 30

func grepScenario(ctx context.Context, keel string, d Dirs) (float64, error) {
	if err := writeLog(filepath.Join(d.Project, "big.log"), grepBytes); err != nil {
		return 0, err
	}
	call := llmtest.Call{Name: "grep", Args: `{"pattern":"needle-[0-9]+"}`}
	return oneCall(ctx, keel, d, func() llmtest.Call { return call })
}

// writeLog writes size bytes of log lines to path.
func writeLog(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var block bytes.Buffer
	for i := 0; block.Len() < 1<<20; i++ {
		if i%4096 == 0 {
			fmt.Fprintf(&block, "2026-11-26T10:00:00Z level=warn msg=\"needle-%d found in the haystack\"\n", i)
			continue
		}
		fmt.Fprintf(&block, "2026-11-26T10:00:00Z level=info msg=\"request %08d served in 12 ms\" path=/api/v1/items\n", i)
	}
	for written := int64(0); written < size; written += int64(block.Len()) {
		if _, err := f.Write(block.Bytes()); err != nil {
			f.Close()
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return f.Close()
}

// writeBytes is the size of the write and edit scenarios' content.
const writeBytes = 50 << 20

// bigContent is writeBytes of source-like lines.
func bigContent() string {
	var b strings.Builder
	b.Grow(writeBytes + 128)
	for i := 0; b.Len() < writeBytes; i++ {
		fmt.Fprintf(&b, "func generated%07d(x int) int { return x*%d + 1 }\n", i, i%97)
	}
	return b.String()
}

func writeScenario(ctx context.Context, keel string, d Dirs) (float64, error) {
	// The call is built when keel asks for it, after keel started: keel's
	// start must not inherit keelbench's RSS (resetPeakRSS).
	return oneCall(ctx, keel, d, func() llmtest.Call {
		args, _ := json.Marshal(map[string]string{"path": "generated.go", "content": bigContent()})
		return llmtest.Call{Name: "write_file", Args: string(args)}
	})
}

func editScenario(ctx context.Context, keel string, d Dirs) (float64, error) {
	content := bigContent()
	if err := os.WriteFile(filepath.Join(d.Project, "generated.go"), []byte(content), 0o644); err != nil {
		return 0, err
	}
	call := llmtest.Call{Name: "edit_file", Args: `{"path":"generated.go","old_string":"func generated0001234(x int) int { return x*70 + 1 }","new_string":"func generated0001234(x int) int { return x*70 + 2 }"}`}
	return oneCall(ctx, keel, d, func() llmtest.Call { return call })
}

// oneCall runs keel headless on a task of one tool call (made by the fake
// model when keel first asks) and a final answer, and returns its peak RSS.
func oneCall(ctx context.Context, keel string, d Dirs, call func() llmtest.Call) (float64, error) {
	var asked atomic.Bool
	srv := llmtest.NewServer(llmtest.Script{Handler: func(req llmtest.RecordedRequest, _ int) llmtest.Round {
		switch {
		case len(req.Tools) == 0: // a compaction's summary request
			return llmtest.Round{Text: "summary: the one thing was done"}
		case asked.Swap(true):
			return llmtest.Round{Text: "done"}
		}
		return llmtest.Round{ToolCalls: []llmtest.Call{call()}, ArgChunk: 64 << 10}
	}})
	defer srv.Close()
	cmd := exec.CommandContext(ctx, keel, "-p", "do the one thing", "--yolo", "--output-format", "json")
	cmd.Dir, cmd.Env = d.Project, d.env(srv.URL(), "")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	resetPeakRSS()
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("keel failed (%v): %s", err, lastLine(stderr.String()+"\n"+stdout.String()))
	}
	var out headlessOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.StopReason != "completed" || out.ToolCalls != 1 {
		return 0, fmt.Errorf("keel stopped with %q after %d tool calls (%v): %s", out.StopReason, out.ToolCalls, err, lastLine(stderr.String()))
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, fmt.Errorf("no resource usage on this system")
	}
	return float64(ru.Maxrss) * 1024, nil
}
