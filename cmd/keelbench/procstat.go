package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of utime and stime in /proc/PID/stat (USER_HZ,
// 100 on every Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

// ProcCPU returns the CPU time process pid has used so far. It sums the
// nanosecond counters of /proc/PID/task/*/schedstat, and falls back to the
// 10 ms ticks of /proc/PID/stat where schedstat is missing.
func ProcCPU(pid int) (time.Duration, error) {
	if d, err := schedstatCPU(pid); err == nil {
		return d, nil
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read the CPU time of process %d: %w", pid, err)
	}
	return parseStatCPU(string(data))
}

// schedstatCPU sums the run time of every thread of pid.
func schedstatCPU(pid int) (time.Duration, error) {
	files, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(files) == 0 {
		return 0, fmt.Errorf("no schedstat for process %d", pid)
	}
	var total time.Duration
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // a thread that just exited
		}
		fields := strings.Fields(string(data))
		if len(fields) == 0 {
			continue
		}
		ns, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parse %s: %w", f, err)
		}
		total += time.Duration(ns)
	}
	return total, nil
}

// ProcWakeups returns how many times the threads of pid have been
// scheduled in so far (the third field of /proc/PID/task/*/schedstat): an
// idle process that never wakes adds none. Threads that exited are not
// counted.
func ProcWakeups(pid int) (int64, error) {
	files, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(files) == 0 {
		return 0, fmt.Errorf("no schedstat for process %d", pid)
	}
	var total int64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // a thread that just exited
		}
		fields := strings.Fields(string(data))
		if len(fields) < 3 {
			continue
		}
		n, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parse %s: %w", f, err)
		}
		total += n
	}
	return total, nil
}

// parseStatCPU returns utime+stime from the text of /proc/PID/stat. The
// command name may hold spaces and parentheses, so fields are counted from
// the last ')'.
func parseStatCPU(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc stat line has no command name: %q", stat)
	}
	f := strings.Fields(stat[i+1:])
	// After the name: state(3) ... utime is field 14, stime 15 (1-based).
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat line is too short: %q", stat)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc stat line has no utime and stime: %q", stat)
	}
	return time.Duration(ut+st) * clockTick, nil
}

// procComm is the command name of pid.
func procComm(pid int) string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return strings.TrimSpace(string(data))
}

// findProcess returns pid itself when its command is name, else the first
// descendant of pid called name (tmux may start the command through a shell).
func findProcess(pid int, name string) (int, bool) {
	if procComm(pid) == name {
		return pid, true
	}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, s := range stats {
		data, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		if ppid, ok := parsePPID(string(data)); ok && ppid == pid {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(s)))
			if found, ok := findProcess(child, name); ok {
				return found, true
			}
		}
	}
	return 0, false
}

// parsePPID returns the parent pid from the text of /proc/PID/stat.
func parsePPID(stat string) (int, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	p, err := strconv.Atoi(f[1])
	return p, err == nil
}
