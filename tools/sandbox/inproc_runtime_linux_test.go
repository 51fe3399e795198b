package sandbox

import (
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The in-process sandbox rests on what the Go runtime does with a
// goroutine that locks its thread and never unlocks it (inproc_linux.go).
// These tests check each of those claims against the runtime this binary
// was built with, with the very confinement commands get: if a Go release
// changed one, they fail before a command could run unconfined or keel
// could run confined.

// confinedGoroutine confines a locked thread as for a command that may
// read nothing and runs body on it; it returns the thread's id once the
// thread is confined, and a channel closed when the goroutine, still
// locked, has exited after body.
func confinedGoroutine(t *testing.T, body func()) (tid int, ended <-chan struct{}) {
	t.Helper()
	if err := InProcess(); err != nil {
		t.Skipf("no in-process sandbox here: %v", err)
	}
	fd, flags, err := readOnlyRuleset(Spec{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	filter, err := compiledFilter(0)
	if err != nil {
		t.Fatal(err)
	}
	got, end := make(chan int, 1), make(chan struct{})
	go func() {
		defer close(end)
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if unix.Gettid() == unix.Getpid() {
			got <- -1 // the main thread: confinedThread hands over; nothing to test here
			return
		}
		if err := confineThread(threadPlan{ruleset: fd, llFlags: flags, filter: filter}); err != nil {
			t.Error(err)
			got <- 0
			return
		}
		got <- unix.Gettid()
		body()
	}()
	tid = <-got
	if tid == -1 {
		<-end
		return confinedGoroutine(t, body)
	}
	if tid == 0 {
		t.FailNow()
	}
	return tid, end
}

// thisThreadConfined reports whether the calling thread has no_new_privs
// (set on every confined thread first): a goroutine that sees it runs on
// a confined thread, or on one cloned from it.
func thisThreadConfined() bool {
	v, err := unix.PrctlRetInt(unix.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)
	return err != nil || v != 0
}

// Threads the runtime starts while a confined goroutine starts other
// goroutines (each of which then holds its thread in a blocking system
// call, so the runtime needs new ones) are clean: new threads are cloned
// by the template thread, never by a locked one, whose state they would
// inherit.
func TestNewThreadsAreNotClonedFromTheConfinedThread(t *testing.T) {
	bnd := statusField(t, os.Getpid(), "CapBnd")
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer unix.Close(p[0])
	// Idle Ps make each goroutine started below wake a thread for it.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	before := threadCount(t)
	var blocked sync.WaitGroup
	started := make(chan struct{})
	tid, ended := confinedGoroutine(t, func() {
		defer close(started)
		// Each goroutine made here wakes a thread from this one; once
		// the idle ones are used up, that means a new thread. This one
		// spins meanwhile rather than block, so it keeps its thread
		// even where a lock would not hold it.
		var reading atomic.Int32
		for i := range int32(64) {
			blocked.Go(func() {
				reading.Add(1)
				var b [1]byte
				_, _ = unix.Read(p[0], b[:]) // holds its thread until the pipe closes
			})
			for reading.Load() <= i {
			}
			if i%8 == 0 {
				runtime.GC() // stops and starts the world from here: threads for the Ps with work
			}
		}
	})
	<-started
	for deadline := time.Now().Add(30 * time.Second); threadCount(t) <= before; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no thread started while 64 goroutines blocked (%d threads)", before)
		}
	}
	t.Logf("threads: %d before, %d after", before, threadCount(t))
	if tainted := taintedThreadsBut(t, bnd, tid); len(tainted) != 0 {
		t.Errorf("threads cloned while a thread was confined are confined too: %v", tainted)
	}
	unix.Close(p[1])
	blocked.Wait()
	<-ended
}

// A locked goroutine's thread runs nothing else while the goroutine
// waits, and ends with it: many goroutines never find themselves on it,
// then or after.
func TestTheConfinedThreadRunsNoOtherGoroutine(t *testing.T) {
	release := make(chan struct{})
	tid, ended := confinedGoroutine(t, func() { <-release }) // parked, its thread idle
	check := func(when string) {
		var wg sync.WaitGroup
		for range 64 {
			wg.Go(func() {
				for range 50 {
					if unix.Gettid() == tid || thisThreadConfined() {
						t.Errorf("%s: a goroutine ran on the confined thread %d", when, tid)
						return
					}
					runtime.Gosched()
				}
			})
		}
		wg.Wait()
	}
	check("while its goroutine waits")
	if _, err := os.Stat("/proc/self/task/" + strconv.Itoa(tid)); err != nil {
		t.Fatalf("the confined thread is gone while its goroutine lives: %v", err)
	}
	close(release)
	<-ended
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat("/proc/self/task/" + strconv.Itoa(tid)); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the confined thread %d outlived its goroutine", tid)
		}
	}
	check("after its goroutine ended")
}

// threadCount is the number of threads of this process.
func threadCount(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// taintedThreadsBut is taintedThreads without the thread skip.
func taintedThreadsBut(t *testing.T, bnd string, skip int) []string {
	var out []string
	for _, id := range taintedThreads(t, bnd) {
		if id != strconv.Itoa(skip) {
			out = append(out, id)
		}
	}
	return out
}
