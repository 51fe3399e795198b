package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Commands keel runs without asking start without the helper: a goroutine
// locks itself to an OS thread, confines that thread alone and starts the
// command from it. Why each step holds (docs/SECURITY.md says it at
// length):
//   - no_new_privs, the capability bounding set, the Landlock domain
//     (landlock_restrict_self without TSYNC) and a seccomp filter (without
//     SECCOMP_FILTER_FLAG_TSYNC) are all per-thread state, and a child
//     inherits the state of the thread that forked it;
//   - os/exec forks on the calling thread (syscall.forkAndExecInChild1
//     calls clone(2) from the goroutine's thread);
//   - the Go runtime never clones a new thread from a locked one: newm
//     asks its template thread, started clean by LockOSThread, instead;
//   - a goroutine that exits while locked takes its thread with it
//     (goexit0), so nothing else ever runs on the confined thread.
//
// The command is the first process of a new pid namespace (and of a new
// user namespace, without id maps, when keel is not root): when it ends,
// is cancelled or times out, the kernel kills every process left in the
// namespace, detached ones included, as the helper does as a subreaper.
// It dies with the confined thread (Pdeathsig), so the thread waits for
// it before it exits, and a keel that dies takes it along.

// threadPlan is what a confined thread applies before it starts a command.
type threadPlan struct {
	ruleset int    // Landlock ruleset, closed by the caller once the start returned
	llFlags uint32 // landlock_restrict_self's flags for it
	filter  []unix.SockFilter
	clone   uintptr // the namespaces the command starts in
}

// startInProcess starts cmd as argv in the read-only profile s from a
// confined thread of this process.
func startInProcess(cmd *exec.Cmd, s Spec, argv []string) error {
	clone, err := inProcessFlags()
	if err != nil {
		return err
	}
	fd, flags, err := readOnlyRuleset(s, s.TempDir)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	filter, err := compiledFilter(uint32(clone))
	if err != nil {
		return err
	}
	if err := asCommand(cmd, s, argv, clone); err != nil {
		return err
	}
	return confined(threadPlan{ruleset: fd, llFlags: flags, filter: filter, clone: clone}, cmd)
}

// asCommand turns the helper's command line into the command's own, as the
// helper would have started it: argv[0] looked up in the command's PATH,
// the private temporary directory, its own session (no terminal).
func asCommand(cmd *exec.Cmd, s Spec, argv []string, clone uintptr) error {
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	env = withTemp(env, s.TempDir)
	path, err := lookPath(argv[0], env)
	if err != nil {
		return err
	}
	cmd.Path, cmd.Args, cmd.Env = path, argv, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: clone}
	// SIGKILL to the namespace's first process kills the namespace; it
	// would ignore SIGTERM from outside without a handler.
	cmd.Cancel = func() error { return cmd.Process.Kill() }
	return nil
}

// confined starts cmd on a new thread that p confines, and returns once
// it started or failed to. The thread lives until the command has ended.
func confined(p threadPlan, cmd *exec.Cmd) error {
	res := make(chan error, 1)
	go confinedThread(p, cmd, res, nil)
	return <-res
}

// confinedThread is the goroutine that owns the confined thread. It
// never unlocks it: when it returns, the runtime ends the thread.
func confinedThread(p threadPlan, cmd *exec.Cmd, res chan<- error, locked chan<- struct{}) {
	runtime.LockOSThread()
	if locked != nil {
		close(locked)
	}
	if unix.Gettid() == unix.Getpid() {
		// The main thread is parked for ever, not ended, when its locked
		// goroutine exits: keep it clean and hold it while another
		// goroutine takes a thread of its own.
		other := make(chan struct{})
		go confinedThread(p, cmd, res, other)
		<-other
		runtime.UnlockOSThread()
		return
	}
	if err := confineThread(p); err != nil {
		res <- err
		return
	}
	if err := cmd.Start(); err != nil {
		res <- err
		return
	}
	// The pidfd is opened before the caller can wait: the process cannot
	// have been reaped yet.
	pidfd, err := unix.PidfdOpen(cmd.Process.Pid, 0)
	res <- nil
	waitExit(cmd.Process.Pid, pidfd, err == nil)
}

// confineThread applies p to the calling thread, in the helper's order:
// no new privileges, root's capabilities but reading out of the bounding set,
// Landlock, then the seccomp filter.
func confineThread(p threadPlan) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if os.Geteuid() == 0 {
		dropCapsButReading() // the confined thread keeps its own effective set
	}
	if err := ll.LandlockRestrictSelf(p.ruleset, p.llFlags); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return installFilter(p.filter, 0)
}

// waitExit blocks until the process has exited, leaving it for its
// owner's Wait to reap (WNOWAIT).
func waitExit(pid, pidfd int, havePidfd bool) {
	idtype, id := unix.P_PID, pid
	if havePidfd {
		defer unix.Close(pidfd)
		idtype, id = unix.P_PIDFD, pidfd
	}
	for {
		var info unix.Siginfo
		err := unix.Waitid(idtype, id, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return // exited, or already reaped (ECHILD)
		}
	}
}
