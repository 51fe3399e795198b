package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/cmd/keel/headless"
	"github.com/keel-dev/keel/cmd/keel/keellog"
	"github.com/keel-dev/keel/internal/termtext"
)

// Exit codes, documented in `keel --help` and the README.
const (
	exitCompleted = 0   // the task completed
	exitFailed    = 1   // provider or internal error
	exitUsage     = 2   // usage or configuration error
	exitHalted    = 3   // halted by a limit or a guard
	exitCancelled = 130 // cancelled (SIGINT, Esc)
)

const exitCodesHelp = `Exit codes:
  0    completed
  1    failed (provider or internal error)
  2    usage or configuration error
  3    halted by a limit or a guard (max_turns, max_tool_calls, token_budget, loop_detected, plan_failed, context_overflow)
  130  cancelled`

// exitError carries an exit code up to run. A nil err means the message
// was already printed (for example a headless result).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError marks err as the user's to fix (exit status 2).
func usageError(err error) error { return &exitError{code: exitUsage, err: err} }

// exitCode prints err once, as one sentence, and maps it to an exit code.
func (a *app) exitCode(err error) int {
	if err == nil {
		return exitCompleted
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			a.printErr(ee.err)
			a.startupResult(ee.err)
		}
		return ee.code
	}
	a.printErr(err)
	a.startupResult(err)
	var ambiguous *datalog.AmbiguousIDError
	if isCobraUsage(err) || keellog.IsUsage(err) || errors.Is(err, datalog.ErrNotFound) || errors.As(err, &ambiguous) {
		return exitUsage // a session id or flag the user got wrong
	}
	return exitFailed
}

// startupResult also writes an error that stopped keel -p before its task
// as a result object on stdout, in json and stream-json formats: a script
// reads why there, as it reads any other end. (A task's own end was
// written already, and comes back as an exitError without a message.)
func (a *app) startupResult(err error) {
	cmd := a.current
	if cmd == nil {
		cmd = a.root // a flag error: cobra stopped before running a command
	}
	if cmd == nil || cmd.HasParent() || !headlessRequested(cmd) {
		return
	}
	headless.WriteStartupError(a.stdout, a.flags.outputFormat, "", errors.New(strings.TrimSpace(termtext.Sanitize(err.Error()))))
}

// printErr prints err, sanitised: it may quote a provider's reply or a
// path the model chose (termtext).
func (a *app) printErr(err error) {
	fmt.Fprintf(a.stderr, "keel: %s\n", strings.TrimSpace(termtext.Sanitize(err.Error())))
}

// isCobraUsage recognises the argument and flag errors cobra returns, which
// are plain errors with no type of their own.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown flag", "unknown shorthand flag", "unknown command", "invalid argument", "flag needs an argument", "accepts ", "requires at least", "requires at most", "bad flag syntax", "if any flags in the group"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
