package tools

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

var (
	grepTreeMB  = flag.Int("keel.greptree", 1024, "size in MB of the generated tree BenchmarkGrepTree searches (0: skip it)")
	grepTreePat = flag.String("keel.greppattern", `SetReadDeadline\(\w+\)`, "the pattern BenchmarkGrepTree looks for")
	grepTreeI   = flag.Bool("keel.grepi", false, "BenchmarkGrepTree ignores case")
)

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
// a rare call (-keel.greppattern): nearly every byte is read and rejected.
func BenchmarkGrepTree(b *testing.B) {
	if *grepTreeMB <= 0 {
		b.Skip("-keel.greptree=0: no tree")
	}
	root := filepath.Join(b.TempDir(), "tree")
	start := time.Now()
	writeTree(b, root, int64(*grepTreeMB)<<20, 1)
	linkTree(b, root, b.TempDir())
	b.Logf("generated %d MB in %v", *grepTreeMB, time.Since(start).Round(time.Millisecond))
	ws, err := NewWorkspace(root)
	if err != nil {
		b.Fatal(err)
	}
	benchEngines(b, ws, grepParams{Pattern: *grepTreePat, IgnoreCase: *grepTreeI})
}

func benchEngines(b *testing.B, ws *Workspace, p grepParams) {
	for ename, rg := range engines() {
		b.Run(fmt.Sprintf("%s-%d", ename, runtime.GOMAXPROCS(0)), func(b *testing.B) {
			if ename == "rg" && rg == "" {
				b.Skip("rg is not installed")
			}
			for b.Loop() {
				if res := runGrep(context.Background(), ws, p, rg); res.IsError {
					b.Fatal(res.Output)
				}
			}
		})
	}
	b.Run("ratio", func(b *testing.B) { benchRatio(b, ws, p) })
}

// benchRatio alternates the Go engine and the rg process, pairsPerOp
// pairs an op, after checking both give the same output. It reports the
// median of the pairs' ratios (Go's time as a percentage of rg's) and the
// median time of each.
func benchRatio(b *testing.B, ws *Workspace, p grepParams) {
	rg := rgPath()
	if rg == "" {
		b.Skip("rg is not installed: nothing to compare with")
	}
	g, r := runGrep(context.Background(), ws, p, ""), runGrep(context.Background(), ws, p, rg)
	capped := strings.Contains(g.Output, "(more than ") && strings.Contains(r.Output, "(more than ")
	if g.Output != r.Output && !capped { // capped: each engine kept the files it found first
		b.Fatalf("the engines differ:\n%s", firstDiff(r.Output, g.Output))
	}
	q, msg := newGrepQuery(context.Background(), ws, p)
	if msg != "" {
		b.Fatal(msg)
	}
	var ratios, goMs, rgMs []float64
	for b.Loop() {
		for range pairsPerOp {
			t0 := time.Now()
			if _, _, err := searchGo(context.Background(), ws, q); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			runRG(b, rg, q)
			g, r := t1.Sub(t0).Seconds()*1e3, time.Since(t1).Seconds()*1e3
			ratios, goMs, rgMs = append(ratios, 100*g/r), append(goMs, g), append(rgMs, r)
		}
	}
	b.ReportMetric(median(ratios), "pct-of-rg")
	b.ReportMetric(median(goMs), "go-ms")
	b.ReportMetric(median(rgMs), "rg-ms")
}

const pairsPerOp = 3

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
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
