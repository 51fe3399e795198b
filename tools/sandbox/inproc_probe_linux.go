package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// newPID and newUserPID are the namespaces a command keel confines itself
// starts in: root may make a pid namespace; anyone else makes it inside a
// user namespace of their own. That user namespace has no id maps (keel is
// not dumpable, so it cannot write them): the command runs as your user
// still, shown as nobody (65534), without any capability, and so can make
// no user namespace itself; the seccomp filter lets clone(2) make exactly
// these namespaces and no other.
const (
	newPID     = unix.CLONE_NEWPID
	newUserPID = unix.CLONE_NEWUSER | unix.CLONE_NEWPID
)

var inproc struct {
	once  sync.Once
	clone uintptr
	err   error
}

// InProcess reports whether keel confines the commands it runs without
// asking itself, without the helper; the error says why not.
func InProcess() error {
	_, err := inProcessFlags()
	return err
}

// inProcessFlags are the namespaces of in-process commands, found once by
// starting a confined command that cannot exist: ENOENT from its exec
// means the thread was confined and the namespaces were made.
func inProcessFlags() (uintptr, error) {
	inproc.once.Do(func() { inproc.clone, inproc.err = probeInProcess() })
	return inproc.clone, inproc.err
}

func probeInProcess() (uintptr, error) {
	if err := CheckReadOnly(); err != nil {
		return 0, err
	}
	candidates := []uintptr{newUserPID}
	if os.Geteuid() == 0 {
		candidates = []uintptr{newPID, newUserPID}
	}
	var errs []error
	for _, clone := range candidates {
		err := probeStart(clone)
		if errors.Is(err, unix.ENOENT) {
			return clone, nil
		}
		errs = append(errs, err)
	}
	return 0, fmt.Errorf("commands cannot have a pid namespace of their own here: %w", errors.Join(errs...))
}

// probeStart starts a program that does not exist from a thread confined
// as for a command that may read nothing, in namespaces clone.
func probeStart(clone uintptr) error {
	fd, flags, err := readOnlyRuleset(Spec{}, os.TempDir())
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	filter, err := compiledFilter(uint32(clone))
	if err != nil {
		return err
	}
	cmd := exec.Command("/nonexistent/keel-probe")
	cmd.SysProcAttr = &unix.SysProcAttr{Setsid: true, Pdeathsig: unix.SIGKILL, Cloneflags: clone}
	return confined(threadPlan{ruleset: fd, llFlags: flags, filter: filter, clone: clone}, cmd)
}

// lookPath finds name as the helper would have: in the PATH of env
// (absolute entries only, as os/exec refuses programs found through a
// relative one). A name with a slash is used as it is, relative to the
// command's directory.
func lookPath(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v // the last one wins, as in the helper's getenv
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}
