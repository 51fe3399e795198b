package sandbox

import (
	"fmt"
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Rights the sandbox governs: every way to change the file system. Reading
// and executing are not handled, so they stay allowed everywhere. Refer
// (moving and linking across directories) needs Landlock ABI 2; without
// it the kernel would refuse every cross-directory rename.
const (
	dirWrites = ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock |
		ll.AccessFSMakeFifo | ll.AccessFSMakeBlock | ll.AccessFSMakeSym | ll.AccessFSRefer |
		ll.AccessFSTruncate
	fileWrites = ll.AccessFSWriteFile | ll.AccessFSTruncate
)

// minABI is the first Landlock ABI with Refer.
const minABI = 2

// Check reports whether the kernel can confine commands; when it cannot,
// the error says why in a few words.
func Check() error {
	v, err := ll.LandlockGetABIVersion()
	switch {
	case err != nil:
		return fmt.Errorf("this kernel has no Landlock (Linux 5.19 or later with Landlock enabled is needed)")
	case v < minABI:
		return fmt.Errorf("this kernel's Landlock is too old (ABI %d; Linux 5.19 or later is needed)", v)
	}
	return nil
}

// confine restricts this process and its future children: writes are
// allowed only below the directories (and to the files) in writable.
func confine(writable []string) error {
	if err := Check(); err != nil {
		return err
	}
	cfg, err := landlock.NewConfig(landlock.AccessFSSet(dirWrites))
	if err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	var dirs, files []string
	for _, p := range writable {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			continue // a cache that does not exist yet cannot be created either
		case fi.IsDir():
			dirs = append(dirs, p)
		default:
			files = append(files, p)
		}
	}
	rules := []landlock.Rule{
		landlock.PathAccess(landlock.AccessFSSet(dirWrites), dirs...).IgnoreIfMissing(),
		landlock.PathAccess(landlock.AccessFSSet(fileWrites), files...).IgnoreIfMissing(),
	}
	if err := cfg.RestrictPaths(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}
