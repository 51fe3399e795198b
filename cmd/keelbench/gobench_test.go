package main

import (
	"strings"
	"testing"
)

const sampleBench = `goos: linux
goarch: amd64
pkg: github.com/keel-dev/keel/ui
cpu: Some CPU
BenchmarkViewTranscript10k/bottom-2         	   12711	     89451 ns/op	  122856 B/op	     159 allocs/op
BenchmarkStreamDelta-2                      	   10000	    106698 ns/op	  122268 B/op	     162 allocs/op
PASS
ok  	github.com/keel-dev/keel/ui	4.924s
pkg: github.com/keel-dev/keel/agent/llm
BenchmarkAccumulateChunk-2         	  448761	      2583 ns/op	  82.08 MB/s	     643 B/op	      12 allocs/op
BenchmarkBuildRequest400Rounds-2   	    2216	    500218 ns/op	    790734 body-bytes	  826590 B/op	      19 allocs/op
BenchmarkBuildRequest400Rounds-2   	    2216	    700000 ns/op	    790734 body-bytes	  826590 B/op	      19 allocs/op
BenchmarkBuildRequest400Rounds-2   	    2216	    600000 ns/op	    790734 body-bytes	  826590 B/op	      19 allocs/op
pkg: github.com/keel-dev/keel/tools
BenchmarkGrepStdlib/go-2-2         	       1	1098664262 ns/op	103043832 B/op	   95801 allocs/op
BenchmarkWriteRound                	    4257	    320492 ns/op
--- FAIL: BenchmarkBroken
some log line with words
`

func TestParseGoBench(t *testing.T) {
	lines, err := ParseGoBench(strings.NewReader(sampleBench))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 8 {
		t.Fatalf("parsed %d lines, want 8: %+v", len(lines), lines)
	}
	first := lines[0]
	if first.Pkg != "github.com/keel-dev/keel/ui" || first.Name != "BenchmarkViewTranscript10k/bottom-2" || first.Iters != 12711 {
		t.Errorf("first line = %+v", first)
	}
	if first.Values["ns/op"] != 89451 || first.Values["allocs/op"] != 159 {
		t.Errorf("first values = %v", first.Values)
	}
	if lines[2].Values["MB/s"] != 82.08 || lines[3].Values["body-bytes"] != 790734 {
		t.Errorf("custom units lost: %v %v", lines[2].Values, lines[3].Values)
	}
}

func TestLookupBench(t *testing.T) {
	lines, _ := ParseGoBench(strings.NewReader(sampleBench))
	cases := []struct {
		name, pkg, bench, unit string
		want                   float64
		ok                     bool
	}{
		{"sub-benchmark with procs suffix", "./ui", "BenchmarkViewTranscript10k/bottom", "ns/op", 89451, true},
		{"median over -count", "./agent/llm", "BenchmarkBuildRequest400Rounds", "ns/op", 600000, true},
		{"custom unit", "./agent/llm", "BenchmarkBuildRequest400Rounds", "body-bytes", 790734, true},
		{"engine named by GOMAXPROCS", "./tools", "BenchmarkGrepStdlib/go", "ns/op", 1098664262, true},
		{"no procs suffix (GOMAXPROCS=1)", "./tools", "BenchmarkWriteRound", "ns/op", 320492, true},
		{"wrong package", "./agent/datalog", "BenchmarkStreamDelta", "ns/op", 0, false},
		{"prefix is not a match", "./ui", "BenchmarkStream", "ns/op", 0, false},
		{"missing unit", "./ui", "BenchmarkStreamDelta", "MB/s", 0, false},
		{"package suffix must be whole", "./i", "BenchmarkStreamDelta", "ns/op", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := LookupBench(lines, c.pkg, c.bench, c.unit)
			if got != c.want || ok != c.ok {
				t.Errorf("LookupBench = %v, %v; want %v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}
