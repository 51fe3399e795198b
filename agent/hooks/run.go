package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Runner runs the configured hooks. A nil *Runner runs none.
type Runner struct {
	hooks []Hook
	dir   string   // where commands run: the workspace
	env   []string // their environment, without keel's secrets
}

// New checks hooks and returns a runner for them; commands run in dir with
// env (plus KEEL_PROJECT_DIR and CLAUDE_PROJECT_DIR set to dir, which
// scripts written for Claude Code read).
func New(hooks []Hook, dir string, env []string) (*Runner, error) {
	r := &Runner{dir: dir, env: append(env[:len(env):len(env)], "KEEL_PROJECT_DIR="+dir, "CLAUDE_PROJECT_DIR="+dir)}
	for _, h := range hooks {
		if err := h.Compile(); err != nil {
			return nil, err
		}
		r.hooks = append(r.hooks, h)
	}
	return r, nil
}

// Has reports whether any hook is configured for e.
func (r *Runner) Has(e Event) bool {
	if r == nil {
		return false
	}
	for _, h := range r.hooks {
		if h.Event == e {
			return true
		}
	}
	return false
}

// outputCap bounds what keel keeps of a hook's stdout and stderr.
const outputCap = 16 << 10

// Result is one hook command's run.
type Result struct {
	Hook     Hook
	ExitCode int // -1 when it did not exit by itself (timeout, cancelled, not started)
	Duration time.Duration
	Stdout   string
	Stderr   string
	TimedOut bool
	Err      string // why it could not run or finish ("" when it exited)
	Reply    *Reply // stdout read as a JSON reply (exit 0)
}

// Run runs the hooks of in's event whose matcher matches, concurrently,
// and returns their results in configuration order. Cancelling ctx kills
// them.
func (r *Runner) Run(ctx context.Context, in Input) Outcome {
	if r == nil {
		return Outcome{}
	}
	var todo []Hook
	for _, h := range r.hooks {
		if h.Event == in.HookEventName && h.Matches(in.matchName()) {
			todo = append(todo, h)
		}
	}
	if len(todo) == 0 {
		return Outcome{}
	}
	stdin, _ := json.Marshal(in)
	out := Outcome{Event: in.HookEventName, Results: make([]Result, len(todo))}
	var wg sync.WaitGroup
	for i, h := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out.Results[i] = r.runOne(ctx, h, stdin)
		}()
	}
	wg.Wait()
	return out
}

// runOne runs one command with stdin, killing its process group at its
// timeout or when ctx ends.
func (r *Runner) runOne(ctx context.Context, h Hook, stdin []byte) Result {
	res := Result{Hook: h, ExitCode: -1}
	tctx, cancel := context.WithTimeout(ctx, h.timeout())
	defer cancel()
	cmd := exec.CommandContext(tctx, "bash", "-c", h.Command)
	cmd.Dir, cmd.Env = r.dir, r.env
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second // a grandchild holding the pipes open does not hold keel
	start := time.Now()
	err := cmd.Run()
	res.Duration = time.Since(start)
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what it left running in its group
	}
	res.Stdout, res.Stderr = stdout.String(), stderr.String()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		res.Err = "cancelled"
	case tctx.Err() != nil:
		res.TimedOut = true
		res.Err = "timed out after " + h.timeout().String() + "; killed"
	case errors.As(err, &exit) && exit.Exited():
		res.ExitCode = exit.ExitCode()
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		res.Err = err.Error()
	default:
		res.ExitCode = 0
	}
	if res.ExitCode == 0 {
		res.Reply = parseReply(res.Stdout)
	}
	return res
}

// capped keeps the first outputCap bytes written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := outputCap - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
