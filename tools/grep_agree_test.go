package tools

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// agreeCorpus is the fixed set of searches both engines must answer alike.
// RE2 and rg's Rust regex differ on purpose in a few places (\w, \d, \s
// and \b are Unicode in rg, ASCII in Go), so no pattern here puts those
// next to non-ASCII text.
var agreeCorpus = []grepParams{
	{Pattern: `context.Context`},
	{Pattern: `func \w+\(ctx context\.Context`, Include: "*.go"},
	{Pattern: `errors\.new`, IgnoreCase: true, Context: 2},
	{Pattern: `TODO|FIXME`, Path: "d01"},
	{Pattern: `^package main$`, Include: "*.go"},
	{Pattern: `^\tpackage|package main$`, Path: "d02"},
	{Pattern: `Buffer\)?\s+Write`},
	{Pattern: `kelvin`, IgnoreCase: true, Path: "d05"},
	{Pattern: `MASK`, IgnoreCase: true},
	{Pattern: `[Hh]andler x`, Include: "**/*_test.go"},
	{Pattern: `colou?r ctx`},
	{Pattern: `\bnil\b \{`, Path: "d04", Context: 1},
	{Pattern: `[0-9]{4}-[0-9]{2}-01 [0-9]`, Path: "d06"},
	{Pattern: `café|naïve 日本語`},
	{Pattern: `CAFÉ`, IgnoreCase: true, Path: "d07"},
	{Pattern: `\Apackage`, Path: "d08"},
	{Pattern: `\)$`, Path: "d05"},
	{Pattern: `error \{$`, Include: "d0[5-9]/**/*.go"},
	{Pattern: `x*`, Path: "d05"},
	{Pattern: `^$`, Path: "d09/s09"},
	{Pattern: `Hello`, Path: "d05"},
	{Pattern: `world [a-z]+ x$`, Context: 3},
	{Pattern: `(?:ctx|err) (?:!=|=) (?:nil|y)`},
	{Pattern: `Ωmega|ΩMEGA`, IgnoreCase: true, Path: "d12"},
	{Pattern: `zzz-not-there`},
}

// TestGrepSameAsRGOnTree runs the corpus on a generated tree through both
// engines and compares the outputs byte for byte.
func TestGrepSameAsRGOnTree(t *testing.T) {
	t.Parallel() // CPU-bound under -race; overlaps the other long tests after the serial ones
	rg := rgPath()
	if rg == "" {
		t.Skip("rg is not installed: the Go engine cannot be compared with it (apt-get install ripgrep)")
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	mustMkdir(t, filepath.Join(root, ".git"))
	writeTree(t, root, 2<<20, 7)
	outside := filepath.Join(dir, "outside")
	writeTestFile(t, filepath.Join(outside, "o.go"), "context.Context outside\n")
	linkTree(t, root, outside)
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range agreeCorpus {
		t.Run(fmt.Sprintf("%02d %s", i, p.Pattern), func(t *testing.T) {
			sameAsRG(t, ws, p, rg, p.Pattern != `zzz-not-there`)
		})
	}
}

// sameAsRG fails when the engines' outputs differ, or when a pattern that
// should find something finds nothing (the comparison would prove little).
func sameAsRG(t *testing.T, ws *Workspace, p grepParams, rg string, wantHits bool) {
	t.Helper()
	want := runGrep(context.Background(), ws, p, rg)
	got := runGrep(context.Background(), ws, p, "")
	if got.Output != want.Output {
		t.Errorf("go and rg differ\n%s", firstDiff(want.Output, got.Output))
	}
	if hits := !strings.HasPrefix(want.Output, "no matches"); hits != wantHits {
		t.Errorf("rg found matches: %v, want %v:\n%s", hits, wantHits, head(want.Output))
	}
	for _, line := range strings.Split(got.Output, "\n") {
		for _, bad := range skipped {
			if strings.HasPrefix(line, bad) {
				t.Errorf("output holds %q, which must be skipped", line)
			}
		}
	}
}

// skipped are the planted paths no search of the tree may show.
var skipped = []string{"app.log", "top-only.txt", "d01/build/", "d02/tmp_x.txt", "d03/a.tmp", "d03/generated/",
	"d03/s01/secret.txt", ".git/", "d04/.git/", "d05/.git:", "d05/bin.dat", "d07/link", "d07/out"}

// firstDiff shows the first line where two outputs part.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n rg: %q\n go: %q\n(%d vs %d lines)", i+1, a, b, len(w), len(g))
		}
	}
	return "same lines"
}
