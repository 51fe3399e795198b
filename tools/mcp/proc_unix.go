//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
	"time"
)

// setGroup runs the command as the leader of its own process group, so
// keel can kill it with everything it started.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the command's process group (a no-op once it is gone).
// A command with its own Cancel (keel's sandbox helper, which kills
// everything the server started, even what left the group) is asked
// first; its group is killed after stopGrace.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	pgid := cmd.Process.Pid
	if cmd.Cancel != nil && cmd.Cancel() == nil {
		time.AfterFunc(stopGrace, func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}
