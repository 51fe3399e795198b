package sandbox

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

var benchKeel = flag.String("keel.bin", "", "BenchmarkReadOnlyCommand/helper: the binary that plays the helper (bin/keel, whose start is keel's); default this test binary")

// BenchmarkReadOnlyCommand is what a command keel runs without asking
// (ls, in a workspace of three files) costs, start to reaped, in the
// read-only profile: from a confined thread of this process, through the
// helper, and unconfined (the floor: a fork and exec of ls). ns/op is the wall
// time; cpu-ns the CPU of this process and its children per command.
func BenchmarkReadOnlyCommand(b *testing.B) {
	if err := CheckReadOnly(); err != nil {
		b.Skipf("no read-only sandbox here: %v", err)
	}
	ws := b.TempDir()
	for _, f := range []string{"a.go", "b.go", "README.md"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	spec := ReadOnly(ws, DefaultReadable, os.Getenv)
	exe := *benchKeel
	if exe == "" {
		exe, _ = os.Executable()
	}
	modes := []struct {
		name string
		r    *Runner
	}{{"in-process", &Runner{Exe: exe, ReadOnlySpec: &spec}}, {"helper", &Runner{Exe: exe, ReadOnlySpec: &spec, HelperOnly: true}}, {"unconfined", nil}}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			if m.r != nil && !m.r.HelperOnly && InProcess() != nil {
				b.Skipf("no in-process sandbox here: %v", InProcess())
			}
			cpu0 := cpuTime()
			b.ResetTimer()
			for b.Loop() {
				if err := runLs(m.r, ws); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns")
		})
	}
}

// runLs runs ls(1) through r (nil: unconfined) in dir.
func runLs(r *Runner, dir string) error {
	if r == nil {
		cmd := exec.Command("ls")
		cmd.Dir = dir
		return cmd.Run()
	}
	cmd, done, err := r.ReadOnlyCommand(context.Background(), []string{"ls"})
	if err != nil {
		return err
	}
	defer done()
	cmd.Dir, cmd.Env = dir, []string{"PATH=" + os.Getenv("PATH"), "GORACE=atexit_sleep_ms=0"}
	if err := r.Start(cmd); err != nil {
		return err
	}
	return cmd.Wait()
}

// cpuTime is the user and system time of this process and its reaped
// children.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
