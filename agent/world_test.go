package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// worldDir is a workspace with a build log one level down and a deep
// file past the look's walk.
func worldDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"main.go", "build/out.log", "docs/a.md"} {
		mustWrite(t, filepath.Join(dir, f), "x\n")
	}
	return dir
}

func mustWrite(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// appendTo grows a file and moves its time on, so the change shows even
// on a file system with coarse times.
func appendTo(t *testing.T, p, line string, at time.Time) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	os.Chtimes(p, at, at)
}

func TestWorldWatch(t *testing.T) {
	dir := worldDir(t)
	w := newWorldWatch(dir)
	if got := w.before(nil); len(got) != 0 {
		t.Fatalf("the first look reported %v", got)
	}
	w.after(nil)
	// Nothing changed between rounds.
	if got := w.before(nil); len(got) != 0 {
		t.Errorf("nothing changed, reported %v", got)
	}
	// A change during the round (the command's own) is not news after it.
	appendTo(t, filepath.Join(dir, "build", "out.log"), "during\n", time.Unix(1700000000, 0))
	w.after(nil)
	if got := w.before(nil); len(got) != 0 {
		t.Errorf("the round's own change was reported: %v", got)
	}
	w.after(nil)
	// A change between rounds, by something else, is.
	appendTo(t, filepath.Join(dir, "build", "out.log"), "outside\n", time.Unix(1700000100, 0))
	if got := w.before(nil); !slices.Equal(got, []string{"build/out.log"}) {
		t.Errorf("outside change reported as %v", got)
	}
	w.after(nil)
	// keel's own edit between looks is not "outside".
	appendTo(t, filepath.Join(dir, "main.go"), "// edit\n", time.Unix(1700000200, 0))
	w.touch(filepath.Join(dir, "main.go"), true)
	if got := w.before(nil); len(got) != 0 {
		t.Errorf("keel's own edit reported: %v", got)
	}
}

// A file the walk does not reach is seen when the command names it or
// the session touched it.
func TestWorldWatchNamedAndTouched(t *testing.T) {
	dir := t.TempDir()
	for i := range lookWalk + 50 { // more entries than the walk visits
		mustWrite(t, filepath.Join(dir, fmt.Sprintf("a%04d", i)), "x")
	}
	deep := filepath.Join(dir, "zz", "deep", "log.txt")
	mustWrite(t, deep, "x\n")
	w := newWorldWatch(dir)
	named := w.named(dir, "tail -n 5 zz/deep/log.txt | grep -c error > /dev/null; echo done")
	if !slices.Equal(named, []string{"zz/deep/log.txt"}) {
		t.Fatalf("named %v", named)
	}
	w.before(named)
	w.after(named)
	appendTo(t, deep, "more\n", time.Unix(1700000000, 0))
	if got := w.before(nil); len(got) != 0 {
		t.Errorf("a file nothing names nor touched was seen: %v (past the walk, by design)", got)
	}
	w.after(nil)
	appendTo(t, deep, "more\n", time.Unix(1700000100, 0))
	if got := w.before(named); !slices.Equal(got, []string{"zz/deep/log.txt"}) {
		t.Errorf("named file: %v", got)
	}
	w.after(named)
	w.touch(deep, false)
	appendTo(t, deep, "more\n", time.Unix(1700000200, 0))
	if got := w.before(nil); !slices.Equal(got, []string{"zz/deep/log.txt"}) {
		t.Errorf("touched file: %v", got)
	}
	if outside := w.named(dir, "cat ../../etc/passwd /etc/hosts"); len(outside) != 0 {
		t.Errorf("paths outside the workspace named: %v", outside)
	}
}

// BenchmarkWorkspaceCheck is the workspace check's cost per round that
// runs a command (a look before and one after), in a project of 2,000
// files in 100 directories, the command naming two paths, the session
// having touched 32 files: make bench reports it (budgets.json).
func BenchmarkWorkspaceCheck(b *testing.B) {
	dir := b.TempDir()
	for d := range 100 {
		for f := range 20 {
			mustWrite(b, filepath.Join(dir, fmt.Sprintf("pkg%03d", d), fmt.Sprintf("f%02d.go", f)), "package x\n")
		}
	}
	w := newWorldWatch(dir)
	for i := range lookTouched {
		w.touch(filepath.Join(dir, fmt.Sprintf("pkg%03d", i*3), "f01.go"), false)
	}
	named := w.named(dir, "go test ./pkg050/... && cat pkg051/f03.go")
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		w.before(named)
		w.after(named)
	}
	// CPU per round (the process's user+sys, GC included): on a busy
	// machine the wall time waits its turn, the CPU does not.
	b.ReportMetric(float64((processCPU()-cpu).Microseconds())/float64(b.N), "cpu-µs")
}

// processCPU is the process's user+sys time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
