//go:build !linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// Main runs the helper when the process was started as one and exits;
// otherwise it returns at once.
func Main() {
	if len(os.Args) < 2 || os.Args[1] != helperArg {
		return
	}
	os.Exit(helper(os.Args[2:]))
}

// helper only runs the command: this system has no Landlock and no
// subreaper; keel kills the command's process group.
func helper(args []string) int {
	_, argv, err := parseHelperArgs(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "keel sandbox: %v\n", err)
		return 126
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exitStatus(exit.Sys().(syscall.WaitStatus))
	case err != nil:
		fmt.Fprintf(os.Stderr, "keel sandbox: cannot start %s: %v\n", argv[0], err)
		return 127
	}
	return 0
}

// CheckReadOnly reports that there is no read-only sandbox here.
func CheckReadOnly() error {
	return errors.New("the read-only sandbox needs Linux (Landlock and seccomp)")
}

// ReadOnlyFeatures is empty: nothing is enforced here.
func ReadOnlyFeatures() string { return "" }

// Check reports that commands cannot be confined here.
func Check() error { return errors.New("the sandbox needs Linux (Landlock)") }

func procAttr(Spec) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// MountNamespaces reports that there are none outside Linux.
func MountNamespaces() error { return errors.New("no mount namespaces outside Linux") }

// ABI is 0: no Landlock outside Linux.
func ABI() int { return 0 }

// HideProcess does nothing outside Linux.
func HideProcess() error { return nil }

// AdoptOrphans is not available outside Linux.
func AdoptOrphans() error { return errors.New("no child subreaper outside Linux") }

// KillDescendants does nothing outside Linux.
func KillDescendants() {}

// InProcess reports that keel cannot confine commands itself here.
func InProcess() error { return errors.New("keel confines commands itself only on Linux") }

func startInProcess(cmd *exec.Cmd, _ Spec, _ []string) error { return cmd.Start() }
