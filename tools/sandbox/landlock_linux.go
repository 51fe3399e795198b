package sandbox

import (
	"fmt"
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Rights the write profile governs: every way to change the file system.
// Reading and executing are not handled, so they stay allowed everywhere.
// Refer (moving and linking across directories) needs Landlock ABI 2;
// without it the kernel would refuse every cross-directory rename.
const (
	dirWrites = ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock |
		ll.AccessFSMakeFifo | ll.AccessFSMakeBlock | ll.AccessFSMakeSym | ll.AccessFSRefer |
		ll.AccessFSTruncate
	fileWrites = ll.AccessFSWriteFile | ll.AccessFSTruncate
)

// Rights of the read-only profile: it handles every right up to ABI 7,
// reads included, and grants each path only what it needs.
const (
	allFS      = dirWrites | ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir | ll.AccessFSIoctlDev
	readDir    = ll.AccessFSReadFile | ll.AccessFSReadDir
	readFile   = ll.AccessFSReadFile
	runDir     = readDir | ll.AccessFSExecute
	runFile    = readFile | ll.AccessFSExecute
	deviceFile = ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate
	tcp        = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	scopes     = ll.ScopeAbstractUnixSocket | ll.ScopeSignal
)

// minABI is the first Landlock ABI with Refer; readOnlyABI the first that
// also governs truncate(2), without which a "read-only" command could
// still empty a file.
const (
	minABI      = 2
	readOnlyABI = 3
)

// ABI is the kernel's Landlock ABI version, 0 without Landlock.
func ABI() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}

// Check reports whether the kernel can confine commands' writes; when it
// cannot, the error says why in a few words.
func Check() error {
	switch v := ABI(); {
	case v == 0:
		return fmt.Errorf("this kernel has no Landlock (Linux 5.19 or later with Landlock enabled is needed)")
	case v < minABI:
		return fmt.Errorf("this kernel's Landlock is too old (ABI %d; Linux 5.19 or later is needed)", v)
	}
	return nil
}

// confine restricts this process and its future children: writes are
// allowed only below the directories (and to the files) in writable;
// with noNetwork, TCP bind and connect are refused too (ABI 4).
func confine(writable []string, noNetwork bool) error {
	if err := Check(); err != nil {
		return err
	}
	args := []any{landlock.AccessFSSet(dirWrites)}
	if noNetwork {
		args = append(args, landlock.AccessNetSet(tcp))
	}
	cfg, err := landlock.NewConfig(args...)
	if err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	rules := pathRules(writable, dirWrites, fileWrites)
	if err := cfg.BestEffort().Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}

// confineReadOnly restricts this process (every thread: the helper) and
// its children to the read-only profile.
func confineReadOnly(s Spec, tmp string) error {
	cfg, rules, err := readOnlyRules(s, tmp)
	if err != nil {
		return err
	}
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}

// readOnlyRules is the read-only profile, the one description that the
// helper (confineReadOnly) and keel's own confined thread (readOnlyRuleset)
// both apply: read below Readable, read and execute below Runnable, write
// only below tmp and to the device files; no TCP, and no signals or
// abstract sockets to processes outside the sandbox.
func readOnlyRules(s Spec, tmp string) (landlock.Config, []landlock.Rule, error) {
	if v := ABI(); v < readOnlyABI {
		return landlock.Config{}, nil, fmt.Errorf("this kernel's Landlock cannot confine reads and truncation (ABI %d; Linux 6.2 or later is needed)", v)
	}
	cfg, err := landlock.NewConfig(landlock.AccessFSSet(allFS), landlock.AccessNetSet(tcp), landlock.ScopedSet(scopes))
	if err != nil {
		return landlock.Config{}, nil, fmt.Errorf("landlock: %w", err)
	}
	var rules []landlock.Rule
	rules = append(rules, pathRules(s.Readable, readDir, readFile)...)
	rules = append(rules, pathRules(s.Runnable, runDir, runFile)...)
	rules = append(rules, pathRules(readOnlyDevices, 0, deviceFile)...)
	rules = append(rules, landlock.PathAccess(landlock.AccessFSSet(dirWrites|readDir), tmp))
	return cfg.BestEffort(), rules, nil
}

// readOnlyRuleset is the read-only profile as a Landlock ruleset that is
// not enforced yet, for a single thread to enforce (landlock_restrict_self
// without TSYNC), with the flags to enforce it with. The caller closes it.
func readOnlyRuleset(s Spec, tmp string) (fd int, flags uint32, err error) {
	cfg, rules, err := readOnlyRules(s, tmp)
	if err != nil {
		return -1, 0, err
	}
	fd, flags, err = cfg.NewRulesetFD(rules...)
	switch {
	case err != nil:
		return -1, 0, fmt.Errorf("landlock: %w", err)
	case fd < 0:
		return -1, 0, fmt.Errorf("landlock: nothing to enforce on this kernel")
	}
	return fd, flags, nil
}

// readOnlyDevices are the device files a read-only command may open for
// writing: none reaches a terminal or another process.
var readOnlyDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// pathRules grants dirRights below each directory of paths and
// fileRights on each other file; paths that do not exist are skipped (a
// cache that does not exist yet cannot be created either).
func pathRules(paths []string, dirRights, fileRights uint64) []landlock.Rule {
	var dirs, files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
		case fi.IsDir():
			dirs = append(dirs, p)
		default:
			files = append(files, p)
		}
	}
	var rules []landlock.Rule
	if len(dirs) > 0 && dirRights != 0 {
		rules = append(rules, landlock.PathAccess(landlock.AccessFSSet(dirRights), dirs...).IgnoreIfMissing())
	}
	if len(files) > 0 && fileRights != 0 {
		rules = append(rules, landlock.PathAccess(landlock.AccessFSSet(fileRights), files...).IgnoreIfMissing())
	}
	return rules
}

// CheckReadOnly reports whether commands can run in the read-only
// sandbox here; when they cannot, the error says why in a few words.
func CheckReadOnly() error {
	if v := ABI(); v < readOnlyABI {
		if v == 0 {
			return Check()
		}
		return fmt.Errorf("this kernel's Landlock is too old to confine reads (ABI %d; Linux 6.2 or later is needed)", v)
	}
	return seccompSupported()
}

// ReadOnlyFeatures says in a few words what the read-only sandbox
// enforces on this kernel, for the start notice and /status.
func ReadOnlyFeatures() string {
	v := ABI()
	s := fmt.Sprintf("Landlock ABI %d: reads and writes confined", v)
	if v >= 4 {
		s += ", TCP refused"
	}
	if v >= 6 {
		s += ", signals and abstract sockets scoped"
	} else {
		s += " (signals to other processes not scoped before Linux 6.12)"
	}
	return s + "; seccomp: no sockets, io_uring or namespaces"
}
