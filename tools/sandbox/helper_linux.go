package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Main runs the helper when the process was started as one and exits;
// otherwise it returns at once. Call it first in main (and in TestMain of
// tests whose Runner points at the test binary).
func Main() {
	if len(os.Args) < 2 || os.Args[1] != helperArg {
		return
	}
	os.Exit(helper(os.Args[2:]))
}

// helper confines itself, runs the command as its child, and when the
// command ends (or a signal says stop) kills every process left.
func helper(args []string) int {
	spec, argv, err := parseHelperArgs(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "keel sandbox: %v\n", err)
		return 126
	}
	// One thread does the prctls and the fork, so the child inherits them.
	runtime.LockOSThread()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if err := AdoptOrphans(); err != nil {
		fmt.Fprintf(os.Stderr, "keel sandbox: cannot become a subreaper: %v\n", err)
	}
	if spec.Nest {
		if code, ok := nested(spec, argv); ok {
			KillDescendants()
			return code
		}
		spec.Nest = false // no user namespace after all: the guard alone keeps the protected paths
	}
	tmp, err := prepare(spec)
	if err != nil {
		fmt.Fprintf(os.Stderr, "keel sandbox: %v; the command was not run\n", err)
		return 126
	}
	switch {
	case spec.MountNS && inUserNS():
		dropAllCaps()
	case os.Geteuid() == 0 && spec.ReadOnly:
		dropCapsButReading()
	case os.Geteuid() == 0:
		dropInspectCaps()
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if tmp != "" {
		cmd.Env = withTemp(os.Environ(), tmp)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal to write to
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "keel sandbox: cannot start %s: %v\n", argv[0], err)
		return 127
	}
	go func() {
		<-stop
		signalTree(os.Getpid()) // the command and everything it started; the wait below reaps
	}()
	code := waitChild(cmd.Process.Pid)
	KillDescendants()
	return code
}

// prepare applies the spec to this process before the command starts:
// protected paths first (mounting is impossible once Landlock applies),
// then Landlock, then the seccomp filter. The read-only profile's
// private temporary directory (made by the Runner) is returned.
func prepare(spec Spec) (tmp string, err error) {
	if spec.MountNS {
		if err := protectPaths(spec.Protect); err != nil {
			return "", err
		}
	}
	switch {
	case spec.ReadOnly:
		if tmp = spec.TempDir; tmp == "" {
			return "", errors.New("the read-only profile needs a temporary directory")
		}
		if err := confineReadOnly(spec, tmp); err != nil {
			return tmp, err
		}
		return tmp, denyNetwork()
	case spec.Landlock:
		if err := confine(spec.Writable, spec.NoNetwork); err != nil {
			return "", err
		}
	}
	if spec.NoNetwork {
		return "", denyNetwork()
	}
	return "", nil
}

// withTemp points the usual temporary-directory variables at tmp, and
// the Go build cache too: go list writes entries there, and a shared
// cache a command could write is code a later build would run.
func withTemp(env []string, tmp string) []string {
	out := make([]string, 0, len(env)+4)
	for _, kv := range env {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "TMPDIR", "TMP", "TEMP", "GOCACHE":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp, "GOCACHE="+filepath.Join(tmp, "go-build"))
}

// inspectCaps let root read another process's memory and environment
// even when it is non-dumpable (CAP_PERFMON does on recent kernels).
var inspectCaps = []uintptr{unix.CAP_SYS_PTRACE, unix.CAP_SYS_ADMIN, unix.CAP_PERFMON}

// dropInspectCaps removes them from what the command can hold, so a
// command run as root still cannot read keel's API key.
func dropInspectCaps() {
	for _, c := range inspectCaps {
		_ = unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0)
	}
}

// readingCaps are the only capabilities root keeps for a command keel
// runs without asking: it reads as root reads (DAC), and Landlock and the
// filter hold whatever it holds. Without this, a mistaken auto-allow run
// as root could still load a kernel module, reboot, set the clock, kill
// any process or reconfigure the network, none of which is a file write.
var readingCaps = map[uintptr]bool{unix.CAP_DAC_OVERRIDE: true, unix.CAP_DAC_READ_SEARCH: true}

// dropCapsButReading empties the bounding set but for readingCaps.
func dropCapsButReading() {
	for c := uintptr(0); c <= unix.CAP_LAST_CAP; c++ {
		if !readingCaps[c] {
			_ = unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0)
		}
	}
}

// waitChild waits for pid, reaping the orphans re-parented meanwhile.
func waitChild(pid int) int {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, 0, nil)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return 126 // ECHILD: nothing to wait for; cannot happen with a live child
		case got == pid:
			return exitStatus(syscall.WaitStatus(ws))
		}
	}
}
