//go:build !unix

package mcp

import "os/exec"

// setGroup does nothing where process groups are not available.
func setGroup(*exec.Cmd) {}

// killGroup kills the command itself where process groups are not available.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
