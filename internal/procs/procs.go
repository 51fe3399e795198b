// Package procs decides how many CPUs keel's goroutines run on at once.
//
// keel's own work is a chain of short hand-offs: the agent, the HTTP
// connection's reader and writer, the datalog's writer, the UI. With a
// processor per CPU, each hand-off to an idle processor wakes a thread
// that spins looking for work and sleeps again, which cost keel more CPU
// per round than the work itself (issue 15: A/B in docs/BENCHMARKS.md).
// So keel runs on one processor once it has started (start-up work runs
// side by side: the datalog opens while the first request is built, and
// on one processor the request waited), and the few CPU-heavy parts (the
// Go grep engine's parallel walk) widen it while they run.
package procs

import (
	"os"
	"runtime"
	"sync"
)

var (
	mu       sync.Mutex
	all      int // the processors Go chose at start; 0 until Narrow
	widening int // callers inside Wide
)

// Narrow runs keel on one processor, unless the GOMAXPROCS environment
// variable says otherwise (the user's choice wins). cmd/keel calls it when
// a session's first answer has arrived; later calls do nothing.
func Narrow() {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if all == 0 {
		all = runtime.GOMAXPROCS(1)
	}
}

// Wide lets goroutines run on every processor until release is called,
// and says how many there are, for sizing a pool of workers. Calls nest
// and may overlap; the last release narrows again.
func Wide() (n int, release func()) {
	mu.Lock()
	defer mu.Unlock()
	if all <= 1 {
		return runtime.GOMAXPROCS(0), func() {}
	}
	if widening == 0 {
		runtime.GOMAXPROCS(all)
	}
	widening++
	var once sync.Once
	return all, func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			if widening--; widening == 0 {
				runtime.GOMAXPROCS(1)
			}
		})
	}
}
