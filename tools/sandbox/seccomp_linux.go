//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The seccomp filter closes what Landlock leaves open to a command that
// must not reach the network or widen the kernel's reach: every socket(2)
// (UDP, raw, netlink and path-named UNIX sockets such as a container
// daemon's, which Landlock does not govern before ABI 9), io_uring (its
// requests bypass this filter), the key rings, bpf, perf events,
// userfaultfd, and new namespaces. socketpair(2) stays allowed: it
// reaches nothing outside.
//
// elastic/go-seccomp-bpf was tried first: a policy that allows by
// default lets syscalls of a foreign architecture (int 0x80 on x86-64)
// through unchecked, and it has no way to say otherwise; so the filter
// is assembled here with golang.org/x/net/bpf and kills such a process.

// nsFlags are clone(2)'s flags that make a new namespace.
const nsFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// denied are the syscalls the filter refuses, with the errno returned.
var denied = []struct {
	nr    uint32
	errno unix.Errno
}{
	{unix.SYS_SOCKET, unix.EACCES},
	{unix.SYS_IO_URING_SETUP, unix.EPERM}, {unix.SYS_IO_URING_ENTER, unix.EPERM}, {unix.SYS_IO_URING_REGISTER, unix.EPERM},
	{unix.SYS_KEYCTL, unix.EPERM}, {unix.SYS_ADD_KEY, unix.EPERM}, {unix.SYS_REQUEST_KEY, unix.EPERM},
	{unix.SYS_BPF, unix.EPERM}, {unix.SYS_PERF_EVENT_OPEN, unix.EPERM}, {unix.SYS_USERFAULTFD, unix.EPERM},
	{unix.SYS_UNSHARE, unix.EPERM}, {unix.SYS_SETNS, unix.EPERM},
	{unix.SYS_CLONE3, unix.ENOSYS}, // its flags are out of the filter's reach; libc falls back to clone
}

func errnoRet(e unix.Errno) bpf.RetConstant {
	return bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(e)}
}

// filterProgram assembles the filter for this architecture. clone(2)
// may make no namespace, or exactly the namespaces allowNS names (0:
// none): keel's confined thread starts its command in a new pid
// namespace (and user namespace, when keel is not root) under this
// filter, and the command itself cannot use them (see inproc_linux.go).
func filterProgram(allowNS uint32) ([]bpf.RawInstruction, error) {
	prog := []bpf.Instruction{
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: nativeArch, SkipTrue: 1},
		bpf.RetConstant{Val: unix.SECCOMP_RET_KILL_PROCESS},
		bpf.LoadAbsolute{Off: 0, Size: 4}, // seccomp_data.nr
	}
	if x32Bit != 0 {
		prog = append(prog, bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: x32Bit, SkipFalse: 1}, errnoRet(unix.ENOSYS))
	}
	for _, d := range denied {
		prog = append(prog, bpf.JumpIf{Cond: bpf.JumpEqual, Val: d.nr, SkipFalse: 1}, errnoRet(d.errno))
	}
	allowed := []uint32{0}
	if allowNS != 0 {
		allowed = append(allowed, allowNS&nsFlags)
	}
	k := uint8(len(allowed))
	prog = append(prog,
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_CLONE, SkipFalse: k + 3},
		bpf.LoadAbsolute{Off: 16, Size: 4}, // the low half of args[0], the flags (little-endian)
		bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: nsFlags},
	)
	for i, v := range allowed {
		prog = append(prog, bpf.JumpIf{Cond: bpf.JumpEqual, Val: v, SkipTrue: k - uint8(i)})
	}
	prog = append(prog, errnoRet(unix.EPERM), bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW})
	return bpf.Assemble(prog)
}

// compiledFilter is the filter in the form seccomp(2) takes.
func compiledFilter(allowNS uint32) ([]unix.SockFilter, error) {
	raw, err := filterProgram(allowNS)
	if err != nil {
		return nil, err
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	return filter, nil
}

// denyNetwork installs the filter on every thread of this process (the
// helper; the command inherits it) after setting no_new_privs, which it
// requires.
func denyNetwork() error {
	filter, err := compiledFilter(0)
	if err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	return installFilter(filter, unix.SECCOMP_FILTER_FLAG_TSYNC)
}

// installFilter loads filter with flags: on the calling thread only
// without SECCOMP_FILTER_FLAG_TSYNC. The thread must have no_new_privs.
func installFilter(filter []unix.SockFilter, flags uintptr) error {
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(filter)
	if e != 0 {
		return fmt.Errorf("seccomp: %w", e)
	}
	return nil
}

// seccompSupported reports whether this kernel takes seccomp filters.
func seccompSupported() error {
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("this kernel has no seccomp filters: %w", err)
	}
	return nil
}
