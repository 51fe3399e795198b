//go:build !linux

package tools

import "os"

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
