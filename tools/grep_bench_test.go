package tools

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

var grepTreeMB = flag.Int("keel.greptree", 256, "size in MB of the generated tree BenchmarkGrepTree searches (the issue's figure: 1024)")

// BenchmarkGrepStdlib searches the Go standard library as keel's grep
// tool does. go and rg time each engine through runGrep; ratio alternates
// the Go engine with the rg process itself (keel's flags, rgArgs, output
// discarded) and reports the Go engine's time as a percentage of rg's.
func BenchmarkGrepStdlib(b *testing.B) {
	ws := stdlibWorkspace(b)
	benchEngines(b, ws, grepParams{Pattern: `func \w+\(ctx context\.Context`, Include: "*.go"})
}

// BenchmarkGrepTree searches a generated tree of -keel.greptree MB
// (source-like text with .gitignore files, binary files and symlinks) for
// a rare call: nearly every byte is read and rejected.
func BenchmarkGrepTree(b *testing.B) {
	if *grepTreeMB <= 0 {
		b.Skip("-keel.greptree=0: no tree")
	}
	root := filepath.Join(b.TempDir(), "tree")
	start := time.Now()
	writeTree(b, root, int64(*grepTreeMB)<<20, 1)
	b.Logf("generated %d MB in %v", *grepTreeMB, time.Since(start).Round(time.Millisecond))
	ws, err := NewWorkspace(root)
	if err != nil {
		b.Fatal(err)
	}
	benchEngines(b, ws, grepParams{Pattern: `SetReadDeadline\(\w+\)`})
}

func benchEngines(b *testing.B, ws *Workspace, p grepParams) {
	for ename, rg := range engines() {
		b.Run(fmt.Sprintf("%s-%d", ename, runtime.GOMAXPROCS(0)), func(b *testing.B) {
			for b.Loop() {
				if res := runGrep(context.Background(), ws, p, rg); res.IsError {
					b.Fatal(res.Output)
				}
			}
		})
	}
	b.Run("ratio", func(b *testing.B) {
		rg := rgPath()
		if rg == "" {
			b.Skip("rg is not installed: nothing to compare with")
		}
		q, msg := newGrepQuery(context.Background(), ws, p)
		if msg != "" {
			b.Fatal(msg)
		}
		var goTime, rgTime time.Duration
		for b.Loop() {
			t0 := time.Now()
			if _, _, err := searchGo(context.Background(), ws, q); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			runRG(b, rg, q)
			goTime, rgTime = goTime+t1.Sub(t0), rgTime+time.Since(t1)
		}
		b.ReportMetric(100*goTime.Seconds()/rgTime.Seconds(), "pct-of-rg")
		b.ReportMetric(float64(goTime.Milliseconds())/float64(b.N), "go-ms")
		b.ReportMetric(float64(rgTime.Milliseconds())/float64(b.N), "rg-ms")
	})
}

// runRG runs rg as keel runs it and discards its output.
func runRG(b *testing.B, rg string, q grepQuery) {
	cmd := exec.Command(rg, rgArgs(q)...)
	cmd.Dir = rgDir(q)
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil {
		if e, ok := err.(*exec.ExitError); !ok || e.ExitCode() != 1 { // 1: no match
			b.Fatal(err)
		}
	}
}
