package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// The first-paint figure (issue 15): how long `keel -c` takes to show a
// long session. A headless run records paintRounds read rounds (over
// 5,000 messages: each round adds the model's call and the tool's result);
// then the TUI resumes it in tmux, and keelbench polls the pane until the
// session's last answer is on the screen. The figure includes starting
// the process in tmux and one poll; the new-session figure, the same
// measurement without a session to load, shows that share.
const (
	paintRounds = 2500
	paintRuns   = 5
	paintPoll   = 2 * time.Millisecond
)

// PaintResult is what the first-paint runs measured (medians, ms).
type PaintResult struct {
	Messages   int     // messages the resumed session holds (about)
	ResumedMs  float64 // keel -c → the last answer on the screen
	NewMs      float64 // keel (a new session) → its first screen
	RecordWall float64 // the headless run that recorded the session
}

// Metrics of the first-paint figure.
const (
	MetricPaintResumed = "resumed_ms"
	MetricPaintNew     = "new_ms"
)

// Metric returns one figure by its name in the budgets file.
func (r PaintResult) Metric(name string) (float64, bool) {
	switch name {
	case MetricPaintResumed:
		return r.ResumedMs, true
	case MetricPaintNew:
		return r.NewMs, true
	}
	return 0, false
}

// FirstPaint records the long session, then times the TUI's first paint
// of it and of a new session, paintRuns times each.
func FirstPaint(ctx context.Context, keel string, log io.Writer) (PaintResult, error) {
	abs, d, err := tuiDirs(keel)
	defer os.RemoveAll(d.Root)
	if err != nil {
		return PaintResult{}, err
	}
	srv := llmtest.NewServer(paintScript())
	defer srv.Close()
	fmt.Fprintf(log, "keelbench: recording a %d-round session\n", paintRounds)
	start := time.Now()
	if err := recordSession(ctx, abs, d, srv.URL()); err != nil {
		return PaintResult{}, err
	}
	res := PaintResult{Messages: 2*paintRounds + 2, RecordWall: ms(time.Since(start))}
	t := newTmux("paint", d.env(srv.URL(), ""))
	if res.ResumedMs, err = paintMedian(ctx, t, d, []string{abs, "-c"}, finalAnswer); err != nil {
		return res, fmt.Errorf("resumed session: %w", err)
	}
	if res.NewMs, err = paintMedian(ctx, t, d, []string{abs}, "keel"); err != nil {
		return res, fmt.Errorf("new session: %w", err)
	}
	return res, nil
}

// paintScript serves paintRounds reads, counted here because compaction
// replaces the history the requests carry, then the final answer; a
// request without tools is compaction's.
func paintScript() llmtest.Script {
	var served atomic.Int64
	return llmtest.Script{Handler: func(req llmtest.RecordedRequest, _ int) llmtest.Round {
		r := llmtest.Round{Usage: &llmtest.Usage{PromptTokens: len(req.Body) / 4, CompletionTokens: 12}}
		switch n := served.Load(); {
		case len(req.Tools) == 0:
			r.Text = "Summary: the files of this project were read one at a time."
		case n >= paintRounds:
			r.Text = finalAnswer
		default:
			served.Add(1)
			r.ToolCalls = []llmtest.Call{{ID: fmt.Sprintf("call_%d", n), Name: "read_file", Args: fmt.Sprintf(`{"path":%q}`, fileName(int(n)%numFiles))}}
		}
		return r
	}}
}

// recordSession runs keel headless through the workload, so the datalog
// holds the long session `keel -c` resumes.
func recordSession(ctx context.Context, keel string, d Dirs, url string) error {
	w := Workload{Rounds: paintRounds}
	// 2,500 rounds pass the context window about three times.
	cfg := filepath.Join(d.ConfigHome(), "keel", "config.toml")
	if err := os.WriteFile(cfg, []byte("max_compactions = 10\n"+benchConfig), 0o644); err != nil {
		return fmt.Errorf("write the config: %w", err)
	}
	cmd := exec.CommandContext(ctx, keel, "-p", w.Prompt(), "--yolo", "--output-format", "json")
	cmd.Dir, cmd.Env = d.Project, d.env(url, "")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("recording the session failed (%v): %s %s", err, lastLine(stderr.String()), lastLine(stdout.String()))
	}
	return nil
}

// paintMedian starts argv in tmux paintRuns times and returns the median
// time until the pane shows want.
func paintMedian(ctx context.Context, t tmux, d Dirs, argv []string, want string) (float64, error) {
	var times []float64
	for i := range paintRuns {
		run := t
		run.sock = fmt.Sprintf("%s-%s-%d", t.sock, filepath.Base(argv[len(argv)-1]), i) // a server of its own: one shutting down refuses new sessions
		v, err := paintOnce(ctx, run, d, argv, want)
		if err != nil {
			return 0, err
		}
		times = append(times, v)
	}
	return Median(times), nil
}

// paintOnce starts argv in a new tmux server and polls until the pane
// shows want.
func paintOnce(ctx context.Context, t tmux, d Dirs, argv []string, want string) (float64, error) {
	defer t.run(context.Background(), "kill-server")
	start := time.Now()
	args := append([]string{"-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-c", d.Project}, argv...)
	if err := t.run(ctx, args...); err != nil {
		return 0, err
	}
	deadline := start.Add(10 * time.Second)
	for time.Now().Before(deadline) {
		cmd := exec.CommandContext(ctx, "tmux", "-L", t.sock, "capture-pane", "-p")
		cmd.Env = t.env
		if out, err := cmd.Output(); err == nil && strings.Contains(string(out), want) {
			return ms(time.Since(start)), nil
		}
		if err := sleep(ctx, paintPoll); err != nil {
			return 0, err
		}
	}
	return 0, fmt.Errorf("the TUI did not show %q in 10 s", want)
}
