package lazyre

import (
	"sync"
	"testing"
)

func TestNewCompilesOnceOnFirstUse(t *testing.T) {
	re := New(`^a+b$`)
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = re()
		}()
	}
	wg.Wait()
	for _, r := range got {
		if r != got[0] {
			t.Fatal("two calls returned different compilations")
		}
	}
	if !re().MatchString("aab") || re().MatchString("ba") {
		t.Fatal("the compiled pattern does not match as ^a+b$")
	}
}

func TestNewPanicsOnFirstUseOfABadPattern(t *testing.T) {
	re := New(`(`) // nothing happens yet
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern did not panic on first use")
		}
	}()
	re()
}
