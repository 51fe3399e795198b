package tools

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// UserCommandTimeout bounds a !command the user typed; esc stops it sooner.
const UserCommandTimeout = 30 * time.Minute

// RunUserCommand runs a command the user typed (the TUI's !command) as
// their own: bash -c in the workspace root, with no permission check and
// no sandbox (the user is not the model), but with run_command's
// environment (no keel secrets) and its process-group kill on cancel. The
// result's Output is what the command printed, without run_command's
// "[exit code ...]" line: the caller shows the exit code and duration once.
func RunUserCommand(ctx context.Context, ws *Workspace, opts Options, command string) Result {
	ctx, cancel := context.WithTimeout(ctx, UserCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir, cmd.Env = ws.Root(), ChildEnv(opts)
	out := newCapWriter(opts.MaxCommandOutput)
	cmd.Stdout, cmd.Stderr = out, out // stdin stays nil: /dev/null
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = cmdWaitDelay
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what it left running in its group
	}
	code := 0
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return Result{Output: out.String() + "[stopped; process group killed]", IsError: true}
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return Result{Output: fmt.Sprintf("could not run the command: %v", err), IsError: true}
	}
	output := out.String()
	if output == "" {
		output = "(no output)"
	}
	return Result{Output: output, IsError: code != 0, ExitCode: &code}
}
