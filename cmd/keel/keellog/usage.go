package keellog

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// usageErr is a mistake in a keel log command line; cmd/keel exits 2 on it
// (IsUsage) and prints its sentence.
type usageErr struct{ err error }

func (e *usageErr) Error() string { return e.err.Error() }
func (e *usageErr) Unwrap() error { return e.err }

// usagef makes a usage error from a sentence.
func usagef(format string, args ...any) error {
	return &usageErr{err: fmt.Errorf(format, args...)}
}

// IsUsage reports whether err is a mistake in a keel log command line
// (exit status 2) rather than a failure.
func IsUsage(err error) bool {
	var u *usageErr
	return errors.As(err, &u)
}

// oneSessionID is the Args of a command that takes exactly one session id,
// saying so in a sentence instead of cobra's "accepts 1 arg(s)".
func oneSessionID(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) == 0:
		return usagef("%s needs a session id (keel log lists them; a unique prefix is enough)", cmd.CommandPath())
	case len(args) > 1:
		return usagef("%s takes one session id, got %d arguments", cmd.CommandPath(), len(args))
	}
	return nil
}

// optionalSessionID is the Args of a command that takes at most one session id.
func optionalSessionID(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return usagef("%s takes at most one session id, got %d arguments", cmd.CommandPath(), len(args))
	}
	return nil
}

// someWords is the Args of keel log search, which needs a query.
func someWords(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return usagef("%s needs words to search for, e.g. %s \"flaky test\"", cmd.CommandPath(), cmd.CommandPath())
	}
	return nil
}
