package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// BenchLine is one result line of `go test -bench` output.
type BenchLine struct {
	Pkg    string             // import path from the preceding "pkg:" line
	Name   string             // as printed, with any -GOMAXPROCS suffix
	Iters  int                // b.N
	Values map[string]float64 // unit ("ns/op", "B/op", "allocs/op", custom) → value
}

// ParseGoBench reads `go test -bench` output and returns its result lines.
// Other lines (goos, PASS, ok, log output) are skipped.
func ParseGoBench(r io.Reader) ([]BenchLine, error) {
	var out []BenchLine
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimSpace(p)
			continue
		}
		if bl, ok := parseBenchLine(line); ok {
			bl.Pkg = pkg
			out = append(out, bl)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read go test output: %w", err)
	}
	return out, nil
}

// parseBenchLine parses "BenchmarkX-2  100  123 ns/op  45 B/op ...".
func parseBenchLine(line string) (BenchLine, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
		return BenchLine{}, false
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		return BenchLine{}, false
	}
	bl := BenchLine{Name: f[0], Iters: n, Values: map[string]float64{}}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return BenchLine{}, false
		}
		bl.Values[f[i+1]] = v
	}
	return bl, true
}

// matches reports whether the line is benchmark name of a package whose
// path ends in pkg ("./agent/datalog"). go test appends "-N" (GOMAXPROCS)
// to the name when N > 1, and some benchmarks name a sub-benchmark after
// GOMAXPROCS themselves (grep's "go-2"), so one or two "-N" suffixes are
// allowed.
func (bl BenchLine) matches(pkg, name string) bool {
	rel := strings.TrimPrefix(pkg, ".") // "/agent/datalog"
	if bl.Pkg != "" && rel != "" && !strings.HasSuffix("/"+bl.Pkg, rel) {
		return false
	}
	if bl.Name == name {
		return true
	}
	rest, ok := strings.CutPrefix(bl.Name, name+"-")
	if !ok {
		return false
	}
	for _, part := range strings.SplitN(rest, "-", 2) {
		if _, err := strconv.Atoi(part); err != nil {
			return false
		}
	}
	return true
}

// LookupBench returns the median of unit over the lines of benchmark name
// in pkg (several with -count), and whether there was any.
func LookupBench(lines []BenchLine, pkg, name, unit string) (float64, bool) {
	var vals []float64
	for _, bl := range lines {
		if v, ok := bl.Values[unit]; ok && bl.matches(pkg, name) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return 0, false
	}
	return Median(vals), true
}
