package procs

import (
	"runtime"
	"sync"
	"testing"
)

// start sets up a process that started on procs processors with the
// GOMAXPROCS variable set to env, calls Narrow as keel does, and puts the
// package and the runtime back at cleanup.
func start(t *testing.T, env string, procs int) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() {
		mu.Lock()
		all, widening = 0, 0
		mu.Unlock()
		runtime.GOMAXPROCS(before)
	})
	t.Setenv("GOMAXPROCS", env)
	runtime.GOMAXPROCS(procs)
	Narrow()
}

func TestNarrowAndWide(t *testing.T) {
	start(t, "", 4)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("after Narrow GOMAXPROCS = %d, want 1", got)
	}
	n, release := Wide()
	if n != 4 || runtime.GOMAXPROCS(0) != 4 {
		t.Fatalf("Wide = %d, GOMAXPROCS %d; want 4 and 4", n, runtime.GOMAXPROCS(0))
	}
	_, release2 := Wide()
	release()
	release() // a second call of the same release does nothing
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Fatalf("one of two widenings released: GOMAXPROCS = %d, want 4", got)
	}
	release2()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("all released: GOMAXPROCS = %d, want 1", got)
	}
}

func TestNarrowKeepsTheUsersChoice(t *testing.T) {
	start(t, "3", 3)
	if got := runtime.GOMAXPROCS(0); got != 3 {
		t.Fatalf("GOMAXPROCS=3 set by the user, after Narrow = %d", got)
	}
	n, release := Wide()
	defer release()
	if n != 3 {
		t.Fatalf("Wide without Narrow = %d, want 3", n)
	}
}

func TestWideConcurrent(t *testing.T) {
	start(t, "", 2)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			_, release := Wide()
			if runtime.GOMAXPROCS(0) != 2 {
				t.Error("inside Wide, GOMAXPROCS is not 2")
			}
			release()
		})
	}
	wg.Wait()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("after every release GOMAXPROCS = %d, want 1", got)
	}
}
