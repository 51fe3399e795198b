package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Every file keel writes is written to a temp file beside it and renamed
// over it, so a crash never leaves half a file. A process killed before
// the rename leaves the temp file; its name says what it is and which
// process made it: ".NAME.keel-tmp-PID-RANDOM". RemoveStaleTemps clears
// those of processes that are gone.

// tempMark separates a temp file's target name from its owner.
const tempMark = ".keel-tmp-"

// tempName is the temp file a write of base goes through.
func tempName(base string) string {
	return "." + base + tempMark + strconv.Itoa(os.Getpid()) + "-" + randomSuffix()
}

// staleTemp reports whether name is a temp file of base whose process is
// gone.
func staleTemp(name, base string) bool {
	rest, ok := strings.CutPrefix(name, "."+base+tempMark)
	if !ok {
		return false
	}
	pidText, _, ok := strings.Cut(rest, "-")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil || pid <= 0 {
		return false
	}
	return !processAlive(pid)
}

// processAlive reports whether pid names a running process (kill 0: EPERM
// means it runs under another user).
func processAlive(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// RemoveStaleTemps removes the temp files that writes of the files at
// paths left behind when their process was killed, and returns the paths
// of those it removed. Paths are absolute; a directory that cannot be
// read is skipped.
func RemoveStaleTemps(paths []string) []string {
	byDir := map[string]map[string]bool{}
	for _, p := range paths {
		dir := filepath.Dir(p)
		if byDir[dir] == nil {
			byDir[dir] = map[string]bool{}
		}
		byDir[dir][filepath.Base(p)] = true
	}
	var removed []string
	for dir, bases := range byDir {
		removed = append(removed, removeStaleIn(dir, bases)...)
	}
	return removed
}

// removeStaleIn removes the stale temps of bases in dir, through its
// checked handle.
func removeStaleIn(dir string, bases map[string]bool) []string {
	r, err := openDir(dir)
	if err != nil {
		return nil
	}
	defer r.Close()
	f, err := r.Open(".")
	if err != nil {
		return nil
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	var removed []string
	for _, n := range names {
		base, ok := tempTarget(n)
		if ok && bases[base] && staleTemp(n, base) && r.Remove(n) == nil {
			removed = append(removed, filepath.Join(dir, n))
		}
	}
	return removed
}

// tempTarget is the file a temp file's name says it was written for.
func tempTarget(name string) (string, bool) {
	i := strings.LastIndex(name, tempMark)
	if i < 1 || name[0] != '.' {
		return "", false
	}
	return name[1:i], true
}
