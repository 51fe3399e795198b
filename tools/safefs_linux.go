package tools

import (
	"os"
	"strconv"
)

// isDir reports whether the directory r holds is dir, as the kernel names
// it (/proc/self/fd), so a swapped symlink anywhere on dir's path shows.
func isDir(r *os.Root, dir string) bool {
	f, err := r.Open(".")
	if err != nil {
		return false
	}
	defer f.Close()
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return sameDir(f, dir) // no /proc: the weaker check
	}
	return real == dir
}
