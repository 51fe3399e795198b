package tools

import "golang.org/x/sys/unix"

// exchange atomically swaps two names (renameat2 RENAME_EXCHANGE).
func exchange(a, b string) {
	_ = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
