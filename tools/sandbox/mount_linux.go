package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
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

// nsAttr asks for the namespaces; a user namespace maps keel's own ids.
func nsAttr(a *syscall.SysProcAttr) {
	a.Cloneflags = mountNSFlags()
	if a.Cloneflags&unix.CLONE_NEWUSER != 0 {
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Geteuid(), HostID: os.Geteuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getegid(), HostID: os.Getegid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
}

var mountNS struct {
	once sync.Once
	err  error
}

// MountNamespaces reports whether the helper can have a private mount
// namespace here; the error says why not (unprivileged user namespaces
// disabled, as Ubuntu's AppArmor policy does, or a seccomp profile).
// It is probed once by starting true(1) in one.
func MountNamespaces() error {
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
