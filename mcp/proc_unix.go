//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// setGroup runs the command as the leader of its own process group, so
// keel can kill it with everything it started.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the command's process group (a no-op once it is gone).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
