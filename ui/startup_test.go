package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// markdownStack are the module paths of what the TUI's markdown pulls in.
// Every program that links ui (keel, headless runs and the sandbox helper
// included) runs their package inits, so they must build nothing there.
var markdownStack = []string{
	"github.com/alecthomas/chroma/", "charm.land/glamour/", "github.com/yuin/goldmark",
	"github.com/microcosm-cc/bluemonday", "github.com/gorilla/css", "github.com/aymerick/douceur",
}

// markdownInitBudget is what the markdown stack may allocate in init, in
// all: chroma's lexers written in Go (~220 KB) and small tables. Unpatched
// (chroma's lexer and style registries, goldmark's and bluemonday's
// regexps) it was about 5.9 MB. Allocation is counted, not time: it does
// not vary with the machine's load.
const markdownInitBudget = 512 << 10

var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs`)

// TestMarkdownStackBuildsNothingAtStartup runs this test binary again with
// GODEBUG=inittrace=1 and adds up what the markdown stack's package inits
// allocate (see docs/BENCHMARKS.md, start-up).
func TestMarkdownStackBuildsNothingAtStartup(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("rerun the test binary: %v\n%s", err, out)
	}
	total, seen := 0, 0
	var report strings.Builder
	for _, line := range strings.Split(string(out), "\n") {
		m := initLine.FindStringSubmatch(line)
		if m == nil || !inMarkdownStack(m[1]) {
			continue
		}
		seen++
		bytes, _ := strconv.Atoi(m[2])
		total += bytes
		report.WriteString(line + "\n")
		if strings.Contains(m[1], "bluemonday") {
			t.Errorf("bluemonday is linked again (%s): glamour's sanitiser should not need it", m[1])
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of the markdown stack in:\n%s", out)
	}
	t.Logf("the markdown stack allocates %d KB in init (budget %d KB)", total>>10, markdownInitBudget>>10)
	if total > markdownInitBudget {
		t.Errorf("the markdown stack allocates %d KB in init, budget %d KB:\n%s", total>>10, markdownInitBudget>>10, report.String())
	}
}

func inMarkdownStack(pkg string) bool {
	for _, p := range markdownStack {
		if strings.HasPrefix(pkg, p) {
			return true
		}
	}
	return false
}

// TestNoTerminalQueriesAtStartup runs this test binary again as a process
// inside tmux would be, with a tmux that leaves a mark when run: nothing
// in init may run it. lipgloss's package-level Writer detected the
// terminal's colours in init, and inside tmux that runs `tmux info`:
// ~4 ms on every keel start there, keel -p and --version included
// (third_party/lipgloss makes it wait for the first Print).
func TestNoTerminalQueriesAtStartup(t *testing.T) {
	bin := t.TempDir()
	mark := filepath.Join(bin, "ran")
	script := "#!/bin/sh\ntouch " + mark + "\necho 'Tc: [missing]'\n"
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"TMUX=/tmp/keel-no-such-tmux,1,0", "TTY_FORCE=1", "TERM=xterm-256color", "COLORTERM=", "NO_COLOR=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("rerun the test binary: %v\n%s", err, out)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Error("a package's init ran tmux (colour detection at startup)")
	}
}
