package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// helperArg is argv[1] of the helper process.
const helperArg = "__keel-sandbox"

// Spec is what the helper applies before it starts the command.
type Spec struct {
	// Landlock confines writes to Writable. False runs the command
	// unconfined (sandbox = "off", or no kernel support), still reaped.
	Landlock bool     `json:"landlock,omitempty"`
	Writable []string `json:"writable,omitempty"`
}

// Runner starts commands through the helper.
type Runner struct {
	// Exe is the binary that plays the helper: keel itself
	// (os.Executable), or a test binary whose TestMain calls Main.
	Exe  string
	Spec Spec
	// Refuse, when set, is why no command may run (sandbox = "on" on a
	// kernel without Landlock); run_command returns it to the model.
	Refuse string
}

// TermGrace is how long a cancelled helper has to kill its processes
// before it is killed itself.
const TermGrace = 2 * time.Second

// Command is argv run through the helper, in its own process group. On
// cancellation the helper gets SIGTERM, kills everything the command
// started and exits; after TermGrace it is killed. The caller sets Dir,
// Env and the streams.
func (r *Runner) Command(ctx context.Context, argv []string) (*exec.Cmd, error) {
	if len(argv) == 0 {
		return nil, errors.New("sandbox: no command")
	}
	spec, err := json.Marshal(r.Spec)
	if err != nil {
		return nil, fmt.Errorf("sandbox: encode spec: %w", err)
	}
	args := append([]string{helperArg, string(spec), "--"}, argv...)
	cmd := exec.CommandContext(ctx, r.Exe, args...)
	cmd.SysProcAttr = procAttr()
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = TermGrace
	return cmd, nil
}

// parseHelperArgs splits the helper's arguments: the spec, "--", argv.
func parseHelperArgs(args []string) (Spec, []string, error) {
	var spec Spec
	if len(args) < 3 || args[1] != "--" {
		return spec, nil, errors.New("usage: " + helperArg + " SPEC -- COMMAND [ARG...]")
	}
	if err := json.Unmarshal([]byte(args[0]), &spec); err != nil {
		return spec, nil, fmt.Errorf("bad spec: %w", err)
	}
	return spec, args[2:], nil
}

// exitStatus maps a wait status to a shell-style exit code.
func exitStatus(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
