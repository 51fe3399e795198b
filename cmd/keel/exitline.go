package main

import (
	"fmt"
	"io"
	"os"

	"github.com/keel-dev/keel/agent/datalog"
)

// exitLine is what keel leaves in the terminal when a session ends: its id
// and how to go on with it. "" when there is nothing to resume: no datalog,
// or nothing was asked.
func exitLine(b *builtSession) string {
	id := b.session.ID()
	if id == "" || len(b.session.History()) == 0 {
		return ""
	}
	short := datalog.ShortID(id)
	return fmt.Sprintf("keel: session %s saved; resume it with keel -c (or keel --resume %s)", short, short)
}

// printTUIExitLine writes the exit line after the TUI has left the
// alternate screen, so it stays in the terminal's scrollback.
func (a *app) printTUIExitLine(b *builtSession) {
	if line := exitLine(b); line != "" {
		fmt.Fprintln(a.stdout, line)
	}
}

// printHeadlessExitLine writes the exit line of keel -p on stderr, and
// only when stderr is a terminal: stdout is the answer (or JSON), and a
// script reading stderr wants only errors there.
func (a *app) printHeadlessExitLine(b *builtSession) {
	if !isTerminal(a.stderr) {
		return
	}
	if line := exitLine(b); line != "" {
		fmt.Fprintln(a.stderr, line)
	}
}

// isTerminal reports whether w is a character device, as a terminal is.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
