package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
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
	// Protect are files and directories inside Writable that stay
	// read-only (.git/hooks, .git/config, .keel, AGENTS.md): bind-mounted
	// read-only in a private mount namespace, and checked afterwards.
	Protect []string `json:"protect,omitempty"`
	// NoNetwork denies TCP (Landlock) and every socket(2) (seccomp).
	NoNetwork bool `json:"no_network,omitempty"`
	// ReadOnly is the profile of commands keel runs without asking: reads
	// only below Readable and Runnable (executing only below Runnable),
	// writes only to a private temporary directory and a few devices, no
	// network, no signals or abstract sockets outside the sandbox.
	ReadOnly bool     `json:"read_only,omitempty"`
	Readable []string `json:"readable,omitempty"`
	Runnable []string `json:"runnable,omitempty"`
	// TempDir is the read-only profile's private temporary directory: the
	// Runner makes it and removes it (a confined helper could not).
	TempDir string `json:"temp_dir,omitempty"`
	// MountNS: the helper runs in a private mount namespace (set by the
	// Runner when it asks for one), where it may protect paths.
	MountNS bool `json:"mount_ns,omitempty"`
	// Nest: the helper starts itself again in a user and mount namespace.
	// keel is not dumpable, so it cannot write the id maps of a user
	// namespace it would start the helper in; the helper can.
	Nest bool `json:"nest,omitempty"`
}

// Runner starts commands through the helper, or, for the commands keel
// runs without asking, from a confined thread of keel's own (Start).
type Runner struct {
	// Exe is the binary that plays the helper: keel itself
	// (os.Executable), or a test binary whose TestMain calls Main.
	Exe string
	// Spec confines the commands the user (or a rule, or --yolo) approved.
	Spec Spec
	// ReadOnlySpec confines the commands keel runs without asking; nil
	// when this system cannot (then nothing may run without asking).
	ReadOnlySpec *Spec
	// Refuse, when set, is why no command may run (sandbox = "on" on a
	// kernel without Landlock); run_command returns it to the model.
	Refuse string
	// HelperOnly runs read-only commands through the helper too, even
	// where keel could confine them itself (tests, A/B measurements).
	HelperOnly bool

	pending sync.Map // *exec.Cmd -> inProcessCmd, until Start or done
}

// inProcessCmd is a read-only command that Start may run without the
// helper: its spec (with its temporary directory) and argv.
type inProcessCmd struct {
	spec Spec
	argv []string
}

// TermGrace is how long a cancelled helper has to kill its processes
// before it is killed itself.
const TermGrace = 2 * time.Second

// Command is argv run through the helper, in its own process group. On
// cancellation the helper gets SIGTERM, kills everything the command
// started and exits; after TermGrace it is killed. The caller sets Dir,
// Env and the streams.
func (r *Runner) Command(ctx context.Context, argv []string) (*exec.Cmd, error) {
	return r.command(ctx, argv, r.Spec)
}

// ReadOnlyCommand is argv run in the read-only sandbox, and what to call
// once it ended; an error when there is no read-only sandbox. Start it
// with r.Start: where keel can (InProcess), the command then starts from
// a confined thread of keel's own, without a helper. Started any other
// way (cmd.Start, cmd.Run), it runs through the helper, as confined.
func (r *Runner) ReadOnlyCommand(ctx context.Context, argv []string) (*exec.Cmd, func(), error) {
	if r.ReadOnlySpec == nil {
		return nil, nil, errors.New("sandbox: this system has no read-only sandbox")
	}
	s := *r.ReadOnlySpec
	dir, err := os.MkdirTemp("", "keel-ro-")
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	s.TempDir = dir
	cmd, err := r.command(ctx, argv, s)
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	if !r.HelperOnly && InProcess() == nil {
		r.pending.Store(cmd, inProcessCmd{spec: s, argv: argv})
	}
	done := func() {
		r.pending.Delete(cmd)
		os.RemoveAll(dir)
	}
	return cmd, done, nil
}

// Start starts cmd, a command of r's: a read-only one from a confined
// thread of keel's own where it can, any other through its helper as
// cmd.Start would. A nil Runner starts cmd as it is.
func (r *Runner) Start(cmd *exec.Cmd) error {
	if r == nil {
		return cmd.Start()
	}
	p, ok := r.pending.LoadAndDelete(cmd)
	if !ok {
		return cmd.Start()
	}
	in := p.(inProcessCmd)
	return startInProcess(cmd, in.spec, in.argv)
}

func (r *Runner) command(ctx context.Context, argv []string, s Spec) (*exec.Cmd, error) {
	if len(argv) == 0 {
		return nil, errors.New("sandbox: no command")
	}
	if len(s.Protect) > 0 && MountNamespaces() == nil {
		s.MountNS, s.Nest = os.Geteuid() == 0, os.Geteuid() != 0
	}
	spec, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("sandbox: encode spec: %w", err)
	}
	args := append([]string{helperArg, string(spec), "--"}, argv...)
	cmd := exec.CommandContext(ctx, r.Exe, args...)
	cmd.SysProcAttr = procAttr(s)
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
