package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Landlock grants rights on whole trees, so it cannot keep .git/hooks
// read-only inside a writable workspace. The helper of an approved
// command runs in a private mount namespace instead (a user namespace
// too when keel is not root) and bind-mounts each protected path
// read-only over itself before it confines itself with Landlock, which
// then forbids the command to unmount anything.

// mountNSFlags are the clone flags that give the helper a private mount
// namespace: root has the right already, anyone else gets it in a user
// namespace of their own.
func mountNSFlags() uintptr {
	if os.Geteuid() == 0 {
		return unix.CLONE_NEWNS
	}
	return unix.CLONE_NEWNS | unix.CLONE_NEWUSER
}

// nsAttr asks for the namespaces. In a user namespace keel's ids are
// root's: the helper (keel started again) keeps the capabilities it
// needs to mount only if it is root there; it drops them all before the
// command starts (dropAllCaps), so the command is root without power.
func nsAttr(a *syscall.SysProcAttr) {
	a.Cloneflags = mountNSFlags()
	if a.Cloneflags&unix.CLONE_NEWUSER != 0 {
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
}

// inUserNS reports a process in a user namespace other than the
// initial one (whose map is the identity of every id).
func inUserNS() bool {
	b, err := os.ReadFile("/proc/self/uid_map")
	return err == nil && !strings.HasPrefix(strings.Join(strings.Fields(string(b)), " "), "0 0 4294967295")
}

// dropAllCaps empties the bounding set: the command gains no capability
// when it starts, even as root of its user namespace.
func dropAllCaps() {
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		_ = unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
	}
}

var mountNS struct {
	once sync.Once
	err  error
}

// MountNamespaces reports whether the helper can have a private mount
// namespace here; the error says why not (unprivileged user namespaces
// disabled, as Ubuntu's AppArmor policy does, or a seccomp profile).
// Root probes once by starting true(1) in one; anyone else reads the
// kernel's switches (keel is not dumpable, so its own probe would fail
// where the helper's nested start succeeds, and a failing start falls
// back to the guard alone).
func MountNamespaces() error {
	if os.Geteuid() != 0 {
		return userNamespaces()
	}
	mountNS.once.Do(func() {
		bin, err := exec.LookPath("true")
		if err != nil {
			mountNS.err = err
			return
		}
		cmd := exec.Command(bin)
		cmd.SysProcAttr = &syscall.SysProcAttr{}
		nsAttr(cmd.SysProcAttr)
		if err := cmd.Run(); err != nil {
			mountNS.err = fmt.Errorf("no private mount namespace: %w", err)
		}
	})
	return mountNS.err
}

// userNamespaces reads the switches that forbid unprivileged user
// namespaces.
func userNamespaces() error {
	for _, c := range []struct{ file, off string }{{"/proc/sys/user/max_user_namespaces", "0"},
		{"/proc/sys/kernel/unprivileged_userns_clone", "0"}, {"/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1"}} {
		if b, err := os.ReadFile(c.file); err == nil && strings.TrimSpace(string(b)) == c.off {
			return fmt.Errorf("no private mount namespace: unprivileged user namespaces are off (%s = %s)", c.file, c.off)
		}
	}
	return nil
}

// nested runs the helper again in a user and mount namespace (see
// Spec.Nest) and returns its exit code; ok is false when it could not
// start, and the caller goes on without a mount namespace.
func nested(spec Spec, argv []string) (code int, ok bool) {
	spec.Nest, spec.MountNS = false, true
	b, err := json.Marshal(spec)
	if err != nil {
		return 0, false
	}
	cmd := exec.Command("/proc/self/exe", append([]string{helperArg, string(b), "--"}, argv...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	nsAttr(cmd.SysProcAttr)
	if err := cmd.Start(); err != nil {
		return 0, false
	}
	return waitChild(cmd.Process.Pid), true
}

// protectPaths makes every mount private to this namespace, then binds
// each existing path read-only over itself.
func protectPaths(paths []string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	for _, p := range paths {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			continue // the guard checks it stays absent
		}
		if err := readOnlyBind(p); err != nil {
			return fmt.Errorf("protect %s: %w", p, err)
		}
	}
	return nil
}

// readOnlyBind binds p over itself and remounts the bind read-only,
// keeping the flags the kernel locks in a user namespace.
func readOnlyBind(p string) error {
	if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return err
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range []struct{ st, ms uintptr }{{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME},
		{unix.ST_RELATIME, unix.MS_RELATIME}} {
		if uintptr(st.Flags)&f.st != 0 {
			flags |= f.ms
		}
	}
	return unix.Mount("", p, "", flags, "")
}
