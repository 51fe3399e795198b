package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/keel-dev/keel/tools/sandbox"
)

const (
	cmdDefaultTimeout = 120
	cmdMaxTimeout     = 600
	cmdDefaultOutput  = 32 << 10
	cmdWaitDelay      = 100 * time.Millisecond // after the kill, stop waiting for escaped pipes
)

type runCommandParams struct {
	Command        string `json:"command" description:"Shell command, run with bash -c. Stdin is closed: no interactive programs."`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" description:"Kill the command after this many seconds (default 120, max 600)."`
	Workdir        string `json:"workdir,omitempty" description:"Directory to run in, relative to the workspace root (default: the root)."`
	Background     bool   `json:"background,omitempty" description:"Start the command as a background job and return its job id at once (a server, a long build, a watcher); read its output with job_output, stop it with job_stop. timeout_seconds does not apply."`
}

const runCommandDesc = `Run a shell command (bash -c) in the workspace and return its combined output and exit code. Use it to build, test, run linters and use git. Do not use it to read or edit files (use read_file, grep, edit_file). Long output keeps its head and tail. Stdin is closed, so interactive commands fail; pass non-interactive flags.`

type runCommand struct {
	ws   *Workspace
	opts Options
}

func newRunCommand(ws *Workspace, opts Options) Tool {
	rc := &runCommand{ws: ws, opts: opts}
	if opts.Jobs != nil {
		opts.Jobs.launch, opts.Jobs.startCmd = rc.launch, opts.Sandbox.Start
	}
	return newTyped(NameRunCommand, runCommandDesc, Execute, rc.run)
}

func (rc *runCommand) run(ctx context.Context, p runCommandParams) (Result, error) {
	if strings.TrimSpace(p.Command) == "" {
		return errResult("command is required"), nil
	}
	timeout, note := p.TimeoutSeconds, ""
	switch {
	case timeout < 0:
		return errResult("timeout_seconds must be positive (default %d, max %d)", cmdDefaultTimeout, cmdMaxTimeout), nil
	case timeout == 0:
		timeout = cmdDefaultTimeout
	case timeout > cmdMaxTimeout:
		timeout, note = cmdMaxTimeout, fmt.Sprintf("[timeout_seconds %d lowered to the maximum, %d]\n", p.TimeoutSeconds, cmdMaxTimeout)
	}
	dir, msg := rc.workdir(p.Workdir)
	if msg != "" {
		return errResult("%s", msg), nil
	}
	if p.Background {
		return rc.startJob(p.Command, dir, p.Workdir, !writesApproved(ctx)), nil
	}
	res := rc.execTracking(ctx, p.Command, dir, time.Duration(timeout)*time.Second)
	res.Output = note + res.Output
	if rc.opts.Jobs != nil && detaches(p.Command) {
		res.Output += "\n" + detachHint
	}
	return res, nil
}

// execTracking runs the command and, unless keel can prove it only
// reads, reports the files it created, modified or deleted.
func (rc *runCommand) execTracking(ctx context.Context, command, dir string, timeout time.Duration) Result {
	if readsOnly(command) {
		return rc.exec(ctx, command, dir, timeout)
	}
	before, ok := rc.ws.snapshot(ctx)
	res := rc.exec(ctx, command, dir, timeout)
	if after, ok2 := rc.ws.snapshot(ctx); ok && ok2 {
		res.Changes = commandChanges(before, after)
		if n := rc.ws.changesNote(res.Changes); n != "" {
			res.Output += "\n" + strings.TrimSuffix(n, "\n")
		}
	}
	return res
}

func (rc *runCommand) workdir(w string) (string, string) {
	dir, err := rc.ws.Resolve(w)
	if err != nil {
		return "", fmt.Sprintf("cannot resolve workdir %q: %v", w, err)
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return "", fmt.Sprintf("workdir %s is not a directory", rc.ws.Rel(dir))
	}
	return dir, ""
}

// exec runs command in its own process group and kills the whole group on
// timeout or cancellation, so children like `sleep` in a pipeline die too.
// Through the sandbox, the command is also confined (a read-only one from
// a confined thread of keel's, others by a helper), and every process it
// leaves dies with it, detached ones included.
func (rc *runCommand) exec(ctx context.Context, command, dir string, timeout time.Duration) Result {
	if sb := rc.opts.Sandbox; sb != nil && sb.Refuse != "" {
		return errResult("commands cannot run: %s", sb.Refuse)
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd, done, err := rc.command(tctx, command, !writesApproved(ctx))
	if err != nil {
		return errResult("could not run the command: %v", err)
	}
	out := newCapWriter(rc.opts.MaxCommandOutput)
	cmd.Dir = dir
	cmd.Env = rc.env()
	cmd.Stdout, cmd.Stderr = out, out // stdin stays nil: /dev/null
	start := time.Now()
	if err = rc.opts.Sandbox.Start(cmd); err == nil {
		err = cmd.Wait()
	}
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // reap background children left in the group
	}
	done()
	return commandResult(out.String(), err, ctx, tctx, timeout, time.Since(start))
}

// command is bash -c command, through the sandbox when there is one: the
// read-only one unless the call was approved (WithWrites). done runs
// after the command: it removes the read-only sandbox's temporary
// directory, or puts back the protected paths an approved command
// changed (see sandbox.Guard) and says so in the output.
func (rc *runCommand) command(ctx context.Context, command string, readOnly bool) (*exec.Cmd, func(), error) {
	argv := []string{"bash", "-c", command}
	sb := rc.opts.Sandbox
	switch {
	case sb != nil && readOnly:
		return sb.ReadOnlyCommand(ctx, argv)
	case sb != nil:
		cmd, err := sb.Command(ctx, argv)
		if err != nil || len(sb.Spec.Protect) == 0 {
			return cmd, func() {}, err
		}
		g := sandbox.NewGuard(sb.Spec.Protect)
		return cmd, func() { noteRestored(cmd, g.Restore(), rc.ws) }, nil
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = cmdWaitDelay
	return cmd, func() {}, nil
}

// noteRestored appends to the command's output which protected paths
// keel put back.
func noteRestored(cmd *exec.Cmd, fixed []string, ws *Workspace) {
	w, ok := cmd.Stdout.(*capWriter)
	if !ok || len(fixed) == 0 {
		return
	}
	rel := make([]string, len(fixed))
	for i, p := range fixed {
		rel[i] = ws.Rel(p)
	}
	fmt.Fprintf(w, "\n[keel put back %s: commands may not change the repository's hooks and configuration, .keel/ or AGENTS.md]\n", strings.Join(rel, ", "))
}

func commandResult(output string, err error, ctx, tctx context.Context, timeout, took time.Duration) Result {
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode() // -1 when killed by a signal
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return errResult("could not run the command: %v", err)
	}
	var tail string
	switch {
	case ctx.Err() != nil:
		tail = "[cancelled by the user; process group killed]"
	case tctx.Err() != nil:
		tail = fmt.Sprintf("[timed out after %s; process group killed. Use a longer timeout_seconds or run less at once]", timeout)
	default:
		tail = fmt.Sprintf("[exit code %d, %.1fs]", code, took.Seconds())
	}
	if output == "" {
		output = "(no output)\n"
	} else if !strings.HasSuffix(output, "\n") {
		output += "\n"
	}
	return Result{Output: output + tail, IsError: code != 0 || tctx.Err() != nil, ExitCode: &code}
}

// env is the command's environment without keel's secrets: names listed
// in SecretEnvNames and any variable whose value is a secret. Pagers and
// git prompts are disabled since stdin is closed.
func (rc *runCommand) env() []string { return ChildEnv(rc.opts) }

// ChildEnv is the environment of the commands keel runs for the model and
// the user (run_command, hooks): Options.Env (or keel's own) without the
// variables SecretEnvNames names or whose value is one of SecretValues,
// with pagers and git prompts off.
func ChildEnv(opts Options) []string {
	base := opts.Env
	if base == nil {
		base = os.Environ()
	}
	drop := map[string]bool{}
	for _, n := range opts.SecretEnvNames {
		drop[n] = true
	}
	secret := map[string]bool{}
	for _, v := range opts.SecretValues {
		if v != "" {
			secret[v] = true
		}
	}
	env := make([]string, 0, len(base)+3)
	for _, kv := range base {
		k, v, _ := strings.Cut(kv, "=")
		if drop[k] || secret[v] {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "PAGER=cat")
}

// launch is the command a background job runs: run_command's, with its
// sandbox (the read-only one unless the call was approved) and
// environment, in dir; done runs when the job has ended.
func (rc *runCommand) launch(ctx context.Context, command, dir string, readOnly bool) (*exec.Cmd, func(), error) {
	if sb := rc.opts.Sandbox; sb != nil && sb.Refuse != "" {
		return nil, nil, errors.New(sb.Refuse)
	}
	cmd, done, err := rc.command(ctx, command, readOnly)
	if err != nil {
		return nil, nil, err
	}
	cmd.Dir, cmd.Env = dir, rc.env()
	return cmd, done, nil
}

// startJob starts command as a background job and says how to follow it.
func (rc *runCommand) startJob(command, dir, workdir string, readOnly bool) Result {
	if rc.opts.Jobs == nil {
		return errResult("background commands are not available in this session; run it without background")
	}
	info, err := rc.opts.Jobs.start(command, dir, workdir, readOnly)
	if err != nil {
		return errResult("could not start the background job: %v", err)
	}
	return Result{
		Output: fmt.Sprintf("Started background job %s: %s\nRead its output with job_output (job_id %q, wait_seconds to wait for progress); stop it with job_stop.", info.ID, command, info.ID),
		Job:    &JobState{ID: info.ID, Started: true, Running: true, Command: command},
	}
}
