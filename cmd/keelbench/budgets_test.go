package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRepoBudgetsFileLoads(t *testing.T) {
	b, err := LoadBudgets("budgets.json")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.RoundCounts(SourceKeelbench), []int{20, 400}) {
		t.Errorf("round counts = %v, want [20 400]", b.RoundCounts(SourceKeelbench))
	}
	if !slices.Equal(b.RoundCounts(SourceFloor), []int{20}) {
		t.Errorf("the null client's round counts = %v, want [20]", b.RoundCounts(SourceFloor))
	}
	for _, s := range []string{SourceKeelbench, SourceFloor, SourceGoBench, SourceBinary, SourceTUIIdle} {
		if !b.Needs(s) {
			t.Errorf("no figure from %s", s)
		}
	}
}

func TestLoadBudgetsRejects(t *testing.T) {
	cases := []struct{ name, json, want string }{
		{"unknown field", `{"figures":[{"figure":"x","unit":"ms","source":"binary","maxx":1}]}`, "unknown field"},
		{"bad unit", `{"figures":[{"figure":"x","unit":"parsecs","source":"binary"}]}`, "unit"},
		{"bad source", `{"figures":[{"figure":"x","unit":"ms","source":"vibes"}]}`, "source"},
		{"keelbench without rounds", `{"figures":[{"figure":"x","unit":"ms","source":"keelbench","metric":"start_ms"}]}`, "rounds"},
		{"floor without rounds", `{"figures":[{"figure":"x","unit":"ms","source":"floor","metric":"gap_median_ms"}]}`, "rounds"},
		{"unknown metric", `{"figures":[{"figure":"x","unit":"ms","source":"keelbench","rounds":2,"metric":"vibes"}]}`, "no metric"},
		{"gobench without pkg", `{"figures":[{"figure":"x","unit":"ms","source":"gobench","bench":"BenchmarkX"}]}`, "pkg"},
		{"first-paint without metric", `{"figures":[{"figure":"x","unit":"ms","source":"first-paint"}]}`, "no metric"},
		{"tui-session without metric", `{"figures":[{"figure":"x","unit":"MB","source":"tui-session"}]}`, "no metric"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "b.json")
			if err := os.WriteFile(path, []byte(c.json), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadBudgets(path)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

func TestGoTestArgs(t *testing.T) {
	b := Budgets{Figures: []Budget{
		{Source: SourceGoBench, Bench: "BenchmarkView/bottom", Pkg: "./ui"},
		{Source: SourceGoBench, Bench: "BenchmarkView/scrolling", Pkg: "./ui"},
		{Source: SourceGoBench, Bench: "BenchmarkWriteRound", Pkg: "./agent/datalog"},
		{Source: SourceBinary},
	}}
	want := []string{"-bench", "^(BenchmarkView|BenchmarkWriteRound)$", "./ui", "./agent/datalog"}
	if got := b.GoTestArgs(); !slices.Equal(got, want) {
		t.Errorf("GoTestArgs = %q, want %q", got, want)
	}
}

func TestParseStatCPU(t *testing.T) {
	// utime 250 and stime 50 ticks; the name holds a space and a ')'.
	stat := "1234 (keel (x) y) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 100 1000 200"
	d, err := parseStatCPU(stat)
	if err != nil || d.Milliseconds() != 3000 {
		t.Errorf("parseStatCPU = %v, %v; want 3s", d, err)
	}
	if p, ok := parsePPID(stat); !ok || p != 1 {
		t.Errorf("parsePPID = %d, %v; want 1", p, ok)
	}
	if _, err := parseStatCPU("garbage"); err == nil {
		t.Error("garbage parsed")
	}
}

func TestCommName(t *testing.T) {
	if got := commName("/x/bin/keel"); got != "keel" {
		t.Errorf("commName = %q", got)
	}
	if got := commName("/x/keel-with-a-long-name"); got != "keel-with-a-lon" {
		t.Errorf("commName = %q, want the first 15 bytes", got)
	}
}
