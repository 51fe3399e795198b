//go:build !linux

package tools

import (
	"io/fs"
	"os"
)

// isDir reports whether the directory r holds is dir. Without /proc the
// check compares identities, which a swap back and forth could fool.
func isDir(r *os.Root, dir string) bool {
	f, err := r.Open(".")
	if err != nil {
		return false
	}
	defer f.Close()
	return sameDir(f, dir)
}

// readAtFast and statAtFast have no fast path here: os.Root does it all.
func readAtFast(string, int64) (bool, []byte, fs.FileInfo, error) { return false, nil, nil, nil }
func statAtFast(string) (fs.FileInfo, bool)                       { return nil, false }
