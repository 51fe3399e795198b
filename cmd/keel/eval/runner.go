package eval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/config"
)

// Builder makes the session of one run: dir is the run's copy of the
// task's project (the workspace and working directory), cfg the user's
// configuration with the run's settings applied, and task's Allow rules
// the permissions, and arm which side of the comparison the run is on
// (what a run carries over to later runs, such as lessons, must stay on
// its side). It must not touch anything outside dir. The runner submits
// the prompt and closes the session.
type Builder func(ctx context.Context, dir string, cfg *config.Config, task *Task, arm string) (*agent.Session, error)

// DefaultTimeout bounds one run when Options.Timeout is 0.
const DefaultTimeout = 10 * time.Minute

// Options configure Run.
type Options struct {
	Config   *config.Config // the user's configuration; A and B apply over it
	Tasks    []*Task
	Runs     int // runs per task and setting
	A, B     Settings
	Parallel int           // runs at once; 0 and 1 run one at a time
	Timeout  time.Duration // per run; 0 means DefaultTimeout
	Build    Builder
	Command  CommandRunner // for checkers; nil runs bash directly
	TempDir  string        // where the copies go; "" is os.TempDir()
	// Progress, when set, is called after each run, one call at a time.
	Progress func(RunResult)
}

// job is one run to make.
type job struct {
	i    int // position in the results
	task *Task
	arm  string
	run  int
}

// Run makes every run — each task Runs times under A and under B,
// interleaved so a provider's slow hour hits both alike — each in its own
// temporary copy, removed afterwards. It stops at the first error of the
// harness or the provider (a provider error would bias the comparison).
// Results are in job order: run 1 of every task (A, then B), then run 2….
func Run(ctx context.Context, opts Options) ([]RunResult, error) {
	root, err := os.MkdirTemp(opts.TempDir, "keel-eval-")
	if err != nil {
		return nil, fmt.Errorf("create the eval's temporary directory: %w", err)
	}
	defer os.RemoveAll(root)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := jobsFor(opts)
	results := make([]RunResult, len(jobs))
	work(ctx, max(opts.Parallel, 1), jobs, func(j job) {
		r, err := runOne(ctx, opts, root, j)
		if err != nil {
			cancel(err)
			return
		}
		results[j.i] = r
	}, func(j job) {
		if opts.Progress != nil && ctx.Err() == nil {
			opts.Progress(results[j.i])
		}
	})
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	return results, nil
}

// jobsFor lists the runs in the order they start.
func jobsFor(opts Options) []job {
	var jobs []job
	for run := 1; run <= opts.Runs; run++ {
		for _, t := range opts.Tasks {
			for _, arm := range []string{ArmA, ArmB} {
				jobs = append(jobs, job{i: len(jobs), task: t, arm: arm, run: run})
			}
		}
	}
	return jobs
}

// work runs do for each job on n goroutines until ctx ends, and then done
// for it, one done at a time.
func work(ctx context.Context, n int, jobs []job, do, done func(job)) {
	queue := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range n {
		wg.Go(func() {
			for j := range queue {
				if ctx.Err() != nil {
					continue // drain: the eval is stopping
				}
				do(j)
				mu.Lock()
				done(j)
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		queue <- j
	}
	close(queue)
	wg.Wait()
}

// runOne makes one run in a fresh copy and judges it.
func runOne(ctx context.Context, opts Options, root string, j job) (RunResult, error) {
	dir, err := prepareCopy(ctx, root, j.task)
	if err != nil {
		return RunResult{}, err
	}
	defer os.RemoveAll(filepath.Dir(dir))
	settings := opts.A
	if j.arm == ArmB {
		settings = opts.B
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	r, err := session(rctx, opts.Build, dir, settings.Apply(opts.Config), j.task, j.arm)
	if err != nil {
		return RunResult{}, err
	}
	r.Task, r.Arm, r.Run = j.task.Name, j.arm, j.run
	switch {
	case ctx.Err() != nil:
		return RunResult{}, context.Cause(ctx)
	case rctx.Err() != nil:
		r.StopReason = StopTimeout
	case r.StopReason == string(agent.StopProviderError):
		return RunResult{}, fmt.Errorf("run %d of task %s (%s) stopped on a provider error, so the comparison would be biased: %s", j.run, j.task.Name, j.arm, r.stopMessage)
	}
	v, err := j.task.Judge(ctx, dir, r.answer, opts.Command)
	if err != nil {
		return RunResult{}, err
	}
	r.Solved, r.Failures = v.Solved, v.Failures
	return r, nil
}

// session builds the run's session, runs the task's prompt to its end and
// measures it.
func session(ctx context.Context, build Builder, dir string, cfg *config.Config, t *Task, arm string) (RunResult, error) {
	s, err := build(ctx, dir, cfg, t, arm)
	if err != nil {
		return RunResult{}, err
	}
	defer s.Close()
	if err := s.Submit(ctx, t.Prompt); err != nil {
		return RunResult{}, fmt.Errorf("start task %s: %w", t.Name, err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	r, ok := observe(s.Events(), real)
	if !ok {
		return RunResult{}, errors.New("the agent's event stream closed before the task ended")
	}
	return r, nil
}

// commandRunner is run, or bash in dir when run is nil.
func commandRunner(run CommandRunner) CommandRunner {
	if run != nil {
		return run
	}
	return func(ctx context.Context, dir, command string) (string, error) {
		cmd := exec.CommandContext(ctx, "bash", "-c", command)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
}
