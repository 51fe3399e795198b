package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile to path until the returned stop is
// called (KEEL_CPUPROFILE=file keel ...), for finding what a round costs.
func startCPUProfile(path string, stderr io.Writer) (stop func()) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "keel: KEEL_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "keel: KEEL_CPUPROFILE: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
