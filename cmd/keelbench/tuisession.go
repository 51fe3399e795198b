package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// The TUI session figure (issue 15): keel's memory after a long session in
// the TUI. bin/keel runs in a private tmux server against the fake model;
// keelbench types sessionTasks prompts, one after the other, each asking
// for sessionRoundsPerTask reads, so the session has 1,000 tool rounds with
// keel's default settings (compaction included: the history passes
// compact_at of the 128k-token window about halfway).
const (
	sessionTasks         = 10
	sessionRoundsPerTask = 100
	sessionSettle        = 2 * time.Second
)

// Metrics of the TUI session figure.
const (
	MetricRSSStart = "rss_start_bytes" // VmRSS before the first prompt, settled
	MetricRSSEnd   = "rss_end_bytes"   // VmRSS after the session, settled
	MetricRSSPeak  = "rss_peak_bytes"  // VmHWM: the most it ever held
)

// SessionResult is what the TUI session measured.
type SessionResult struct {
	Rounds        int     // tool rounds the fake model served
	RSSStartBytes float64 // VmRSS before the first task, settled
	RSSEndBytes   float64 // VmRSS after the last task, settled
	RSSPeakBytes  float64 // VmHWM over the whole run
	WallMs        float64
}

// Metric returns one figure by its name in the budgets file.
func (r SessionResult) Metric(name string) (float64, bool) {
	switch name {
	case MetricRSSStart:
		return r.RSSStartBytes, true
	case MetricRSSEnd:
		return r.RSSEndBytes, true
	case MetricRSSPeak:
		return r.RSSPeakBytes, true
	}
	return 0, false
}

// sessionPrompt is task i's prompt (1-based). It holds no character the
// editor treats specially (/, @, !).
func sessionPrompt(i int) string {
	return fmt.Sprintf("Task %d of %d: read the %d files in this project one at a time, %d reads in all, then say you are done.",
		i, sessionTasks, numFiles, sessionRoundsPerTask)
}

// sessionDone is the fake model's last answer of task i; keelbench waits
// for it on the screen before typing the next prompt.
func sessionDone(i int) string { return fmt.Sprintf("keelbench-task-%d-done", i) }

// sessionScript is the fake model of the TUI session: a task's prompt
// starts a count of read_file rounds; after sessionRoundsPerTask of them it
// answers. A request without tools is compaction's summary request. The
// count is kept here, not read from the request, because compaction
// replaces the history the request carries.
type sessionScript struct {
	mu     sync.Mutex
	task   int // the task being served (1-based)
	inTask int // its rounds served
	served int // rounds served in all
}

func (s *sessionScript) script() llmtest.Script {
	return llmtest.Script{Handler: func(req llmtest.RecordedRequest, _ int) llmtest.Round {
		r := llmtest.Round{Usage: &llmtest.Usage{PromptTokens: len(req.Body) / 4, CompletionTokens: 12}}
		if len(req.Tools) == 0 {
			r.Text = "Summary: the files of this project were read one at a time; each defines two small functions."
			return r
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if last := req.Messages[len(req.Messages)-1]; last.Role == "user" && strings.HasPrefix(last.Content, "Task ") {
			s.task, s.inTask = s.task+1, 0
		}
		if s.inTask >= sessionRoundsPerTask {
			r.Text = "I read every file; each defines two small functions. " + sessionDone(s.task)
			return r
		}
		s.inTask++
		s.served++
		r.ToolCalls = []llmtest.Call{{
			ID:   fmt.Sprintf("call_%d", s.served),
			Name: "read_file",
			Args: fmt.Sprintf(`{"path":%q}`, fileName(s.served%numFiles)),
		}}
		return r
	}}
}

func (s *sessionScript) rounds() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}

// TUISession runs the 1,000-round session in the TUI and reads keel's
// memory from /proc/PID/status when it is over.
func TUISession(ctx context.Context, keel string, log io.Writer) (SessionResult, error) {
	abs, d, err := tuiDirs(keel)
	defer os.RemoveAll(d.Root)
	if err != nil {
		return SessionResult{}, err
	}
	script := &sessionScript{}
	srv := llmtest.NewServer(script.script())
	defer srv.Close()
	t := newTmux("session", d.env(srv.URL(), ""))
	defer t.run(context.Background(), "kill-server")
	start := time.Now()
	if err := t.run(ctx, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-c", d.Project, abs, "--yolo"); err != nil {
		return SessionResult{}, err
	}
	pid, err := t.keelPID(ctx, commName(abs))
	if err != nil {
		return SessionResult{}, err
	}
	fmt.Fprintf(log, "keelbench: TUI running as pid %d; %d tasks of %d rounds\n", pid, sessionTasks, sessionRoundsPerTask)
	if err := t.waitDrawn(ctx); err != nil {
		return SessionResult{}, err
	}
	if err := sleep(ctx, sessionSettle); err != nil {
		return SessionResult{}, err
	}
	startRSS, _, err := ProcRSS(pid)
	if err != nil {
		return SessionResult{}, err
	}
	if err := runSessionTasks(ctx, t, script); err != nil {
		return SessionResult{}, err
	}
	wall := time.Since(start)
	if err := sleep(ctx, sessionSettle); err != nil {
		return SessionResult{}, err
	}
	rss, hwm, err := ProcRSS(pid)
	if err != nil {
		return SessionResult{}, err
	}
	return SessionResult{Rounds: script.rounds(), RSSStartBytes: startRSS, RSSEndBytes: rss, RSSPeakBytes: hwm, WallMs: ms(wall)}, nil
}

// runSessionTasks types each task's prompt and waits for its answer.
func runSessionTasks(ctx context.Context, t tmux, script *sessionScript) error {
	for i := 1; i <= sessionTasks; i++ {
		if err := t.typeLine(ctx, sessionPrompt(i)); err != nil {
			return err
		}
		if err := t.waitText(ctx, sessionDone(i), 5*time.Minute); err != nil {
			return fmt.Errorf("task %d (%d rounds served): %w", i, script.rounds(), err)
		}
	}
	if n := script.rounds(); n != sessionTasks*sessionRoundsPerTask {
		return fmt.Errorf("the session ran %d tool rounds, want %d", n, sessionTasks*sessionRoundsPerTask)
	}
	return nil
}

// typeLine types text into the pane and presses Enter.
func (t tmux) typeLine(ctx context.Context, text string) error {
	if err := t.run(ctx, "send-keys", "-l", text); err != nil {
		return err
	}
	return t.run(ctx, "send-keys", "Enter")
}

// waitText waits until the pane shows text.
func (t tmux) waitText(ctx context.Context, text string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		cmd := exec.CommandContext(ctx, "tmux", "-L", t.sock, "capture-pane", "-p")
		cmd.Env = t.env
		if out, err := cmd.Output(); err == nil && strings.Contains(string(out), text) {
			return nil
		}
		if err := sleep(ctx, 250*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("the TUI did not show %q in %s", text, limit)
}

// ProcRSS returns the resident set of pid now (VmRSS) and at its peak
// (VmHWM), in bytes, from /proc/PID/status.
func ProcRSS(pid int) (rss, hwm float64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, fmt.Errorf("read the memory of process %d: %w", pid, err)
	}
	return parseStatusRSS(string(data))
}

// parseStatusRSS reads VmRSS and VmHWM (kB) from /proc/PID/status text.
func parseStatusRSS(status string) (rss, hwm float64, err error) {
	found := 0
	for _, line := range strings.Split(status, "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, 0, fmt.Errorf("/proc status line %q is not in kB", line)
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc status line %q: %w", line, err)
		}
		found++
		if name == "VmRSS" {
			rss = kb * 1024
		} else {
			hwm = kb * 1024
		}
	}
	if found != 2 {
		return 0, 0, errors.New("/proc status has no VmRSS or VmHWM")
	}
	return rss, hwm, nil
}
