//go:build unix

package keellog

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminalWidth is f's width in columns when it is a terminal, else 0.
// (keel log stays free of the TUI's libraries: deps_test.go.)
func terminalWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
