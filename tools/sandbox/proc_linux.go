package sandbox

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// procAttr puts the helper in its own process group and sends it SIGTERM
// if keel dies, so it can kill the command's processes first.
// When the spec protects paths, the helper gets a private mount namespace.
func procAttr(s Spec) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if s.MountNS {
		nsAttr(a)
	}
	return a
}

// HideProcess makes keel non-dumpable: no process of the same user (a
// command keel runs included) can read its memory or /proc/<pid>/environ,
// where the API key lives. It is safe to call more than once.
func HideProcess() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}
