package sandbox

import (
	"bytes"
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// AdoptOrphans makes this process a child subreaper: processes orphaned
// below it are re-parented to it instead of to init, so KillDescendants
// can find them.
func AdoptOrphans() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// KillDescendants kills every process below this one and reaps it. As a
// subreaper, the helper inherits the orphans of each process it kills,
// so a few passes reach the whole tree, however it was detached.
func KillDescendants() {
	self := os.Getpid()
	for range 50 {
		reapAll()
		if !hasChildren() {
			return
		}
		signalTree(self)
	}
}

// signalTree sends SIGKILL to every process below root, reaping none (the
// helper's wait loop may be waiting for one of them).
func signalTree(root int) {
	for _, pid := range descendants(processTree(), root) {
		_ = unix.Kill(pid, unix.SIGKILL)
	}
}

// reapAll collects every child that has exited, without blocking.
func reapAll() {
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || pid <= 0 {
			return
		}
	}
}

// hasChildren reports a live (not yet reaped) child: the cheap test that
// spares the /proc scan when the command left nothing behind.
func hasChildren() bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return !errors.Is(err, unix.ECHILD)
}

// processTree maps each process to its parent, read from /proc.
func processTree() map[int]int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := make(map[int]int, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := readPPID(pid); ok {
			parent[pid] = pp
		}
	}
	return parent
}

// readPPID parses the parent pid from /proc/PID/stat, after the command
// name in parentheses (which may itself hold spaces and parentheses).
func readPPID(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(string(f[1]))
	return pp, err == nil
}

// descendants lists every process below root in tree.
func descendants(tree map[int]int, root int) []int {
	children := map[int][]int{}
	for pid, pp := range tree {
		children[pp] = append(children[pp], pid)
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}
