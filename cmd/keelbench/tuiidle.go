package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// ErrNoTmux means the TUI idle figure cannot be measured here.
var ErrNoTmux = errors.New("tmux is not installed")

// Idle measurement timing: settle after the task, then sample.
const (
	idleSettle = 2 * time.Second
	idleSample = 10 * time.Second
)

// tuiRounds is the size of the task the TUI runs before it idles, so the
// figure is the idle cost after real work (spinner stopped, caches full).
const tuiRounds = 3

// MetricWakeups names the TUI idle figure of wake-ups per second.
const MetricWakeups = "wakeups_per_s"

// IdleResult is what the idle TUI cost over the sample.
type IdleResult struct {
	CPUPct        float64 // CPU time as a percentage of one core
	WakeupsPerSec float64 // times any of its threads was scheduled in, per second
}

// tuiDirs makes what a TUI figure needs: tmux, keel's absolute path (the
// pane starts in the project) and a fresh project and home. d.Root is to
// be removed even on an error.
func tuiDirs(keel string) (abs string, d Dirs, err error) {
	if _, err := exec.LookPath("tmux"); err != nil {
		return "", Dirs{}, ErrNoTmux
	}
	if abs, err = filepath.Abs(keel); err != nil {
		return "", Dirs{}, fmt.Errorf("resolve %s: %w", keel, err)
	}
	d, err = makeDirs(false)
	return abs, d, err
}

// TUIIdle starts bin/keel's TUI in a private tmux server against the fake
// model, runs a short task, waits idleSettle, then returns the process's CPU
// use and wake-ups over idleSample.
func TUIIdle(ctx context.Context, keel string, log io.Writer) (IdleResult, error) {
	abs, d, err := tuiDirs(keel)
	defer os.RemoveAll(d.Root)
	if err != nil {
		return IdleResult{}, err
	}
	w := Workload{Rounds: tuiRounds}
	srv := llmtest.NewServer(w.Script())
	defer srv.Close()
	t := newTmux("idle", d.env(srv.URL(), ""))
	defer t.run(context.Background(), "kill-server")
	if err := t.run(ctx, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-c", d.Project, abs, "--yolo"); err != nil {
		return IdleResult{}, err
	}
	pid, err := t.keelPID(ctx, commName(abs))
	if err != nil {
		return IdleResult{}, err
	}
	fmt.Fprintf(log, "keelbench: TUI running as pid %d; running a %d-round task, then idling\n", pid, tuiRounds)
	if err := t.waitDrawn(ctx); err != nil {
		return IdleResult{}, err
	}
	if err := t.typeLine(ctx, w.Prompt()); err != nil {
		return IdleResult{}, err
	}
	if err := waitFinished(ctx, srv, tuiRounds+1); err != nil {
		return IdleResult{}, err
	}
	return sampleIdle(ctx, pid)
}

// tmux runs commands against a private tmux server, so a user's sessions
// are never touched, with a clean environment.
type tmux struct {
	sock string
	env  []string
}

// tmuxServers numbers the private tmux servers of one keelbench run.
var tmuxServers atomic.Int64

// newTmux names a new private server, never the name of an earlier one:
// kill-server returns before that server is gone, and a client of the same
// name then fails with "server exited unexpectedly".
func newTmux(kind string, env []string) tmux {
	return tmux{sock: fmt.Sprintf("keelbench-%s-%d-%d", kind, os.Getpid(), tmuxServers.Add(1)), env: env}
}

func (t tmux) run(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, "tmux", append([]string{"-L", t.sock}, args...)...)
	cmd.Env = t.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("tmux %s failed: %v: %s", args[0], err, strings.TrimSpace(string(out)))
	}
	return nil
}

// commName is the name Linux shows in /proc/PID/comm for a binary: its
// base name cut to 15 bytes.
func commName(path string) string {
	name := filepath.Base(path)
	if len(name) > 15 {
		name = name[:15]
	}
	return name
}

// keelPID finds the process called name in the session's only pane.
func (t tmux) keelPID(ctx context.Context, name string) (int, error) {
	cmd := exec.CommandContext(ctx, "tmux", "-L", t.sock, "list-panes", "-F", "#{pane_pid}")
	cmd.Env = t.env
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("list the tmux pane: %w", err)
	}
	pane, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, fmt.Errorf("tmux gave no pane pid: %q", out)
	}
	pid, ok := findProcess(pane, name)
	if !ok {
		return 0, fmt.Errorf("no %s process under tmux pane %d: did the TUI exit at start?", name, pane)
	}
	return pid, nil
}

// waitDrawn waits until the TUI has drawn its first screen: keys sent
// before Bubble Tea reads the terminal are lost.
func (t tmux) waitDrawn(ctx context.Context) error {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		cmd := exec.CommandContext(ctx, "tmux", "-L", t.sock, "capture-pane", "-p")
		cmd.Env = t.env
		if out, err := cmd.Output(); err == nil && strings.TrimSpace(string(out)) != "" {
			return sleep(ctx, 300*time.Millisecond) // let it finish its terminal queries
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return errors.New("the TUI drew nothing in 15 s")
}

// waitFinished waits until the server has answered want requests.
func waitFinished(ctx context.Context, srv *llmtest.Server, want int) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		reqs := srv.Requests()
		if len(reqs) >= want && !reqs[len(reqs)-1].FinishedAt.IsZero() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return fmt.Errorf("the TUI sent %d of %d requests in 60 s: did the prompt reach it?", len(srv.Requests()), want)
}

// sampleIdle waits idleSettle, then measures pid's CPU and wake-ups over
// idleSample.
func sampleIdle(ctx context.Context, pid int) (IdleResult, error) {
	if err := sleep(ctx, idleSettle); err != nil {
		return IdleResult{}, err
	}
	before, err := ProcCPU(pid)
	if err != nil {
		return IdleResult{}, err
	}
	wakesBefore, _ := ProcWakeups(pid)
	start := time.Now()
	if err := sleep(ctx, idleSample); err != nil {
		return IdleResult{}, err
	}
	after, err := ProcCPU(pid)
	if err != nil {
		return IdleResult{}, fmt.Errorf("the TUI exited while idle: %w", err)
	}
	wakesAfter, _ := ProcWakeups(pid)
	elapsed := time.Since(start)
	return IdleResult{
		CPUPct:        100 * float64(after-before) / float64(elapsed),
		WakeupsPerSec: float64(wakesAfter-wakesBefore) / elapsed.Seconds(),
	}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
