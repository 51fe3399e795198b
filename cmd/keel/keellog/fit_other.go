//go:build !unix

package keellog

import "os"

// terminalWidth is 0 where keel does not ask the terminal: lines stay
// whole.
func terminalWidth(*os.File) int { return 0 }
