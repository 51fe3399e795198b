package tools

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// naiveLines is grep by definition: the pattern on each line alone.
func naiveLines(re *regexp.Regexp, content string) []grepLine {
	var out []grepLine
	lines := strings.SplitAfter(content, "\n")
	for i, l := range lines {
		if l == "" && i == len(lines)-1 {
			break
		}
		l = strings.TrimSuffix(l, "\n")
		if re.MatchString(l) {
			out = append(out, grepLine{num: i + 1, text: l, match: true})
		}
	}
	return out
}

// searchString runs the engine's file search on content.
func searchString(re *regexp.Regexp, content string, context int) ([]grepLine, bool) {
	s := &goSearch{q: grepQuery{re: re, context: context}, block: blockPattern(re), cancel: func() {}}
	s.searchFile(strings.NewReader(content), "/f")
	if len(s.files) == 0 {
		return nil, false
	}
	return s.files[0].lines, true
}

// FuzzGrepLines: the streamed search, with its multi-line pass over a
// buffer of lines, finds exactly the lines the pattern matches one by one.
func FuzzGrepLines(f *testing.F) {
	f.Add(`func \w+\(ctx`, "package a\nfunc F(ctx context.Context) {}\nfunc G() {}\n")
	f.Add(`^$`, "a\n\nb\n\n")
	f.Add(`a\s+b`, "a\nb\na b\n")
	f.Add(`\Apackage|x$`, "package p\n x\nx\r\npackage")
	f.Add(`(?i)k`, "\u212a\nK\nk")
	f.Add(`x*`, "")
	f.Add(`\bnil\b`, "nil\nxnil\n(nil)")
	f.Fuzz(func(t *testing.T, pattern, content string) {
		re, err := regexp.Compile(pattern)
		if err != nil || strings.IndexByte(content, 0) >= 0 {
			return
		}
		want := naiveLines(re, content)
		got, _ := searchString(re, content, 0)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("pattern %q on %q:\n got %v\nwant %v", pattern, content, got, want)
		}
	})
}

// Context lines come once each and in order, around every match.
func TestGrepContextLines(t *testing.T) {
	re := regexp.MustCompile(`^m`)
	got, _ := searchString(re, "a\nb\nm1\nc\nm2\nd\ne\nf\ng\nm3\n", 2)
	var b strings.Builder
	for _, l := range got {
		fmt.Fprintf(&b, "%d%v ", l.num, l.match)
	}
	if want := "1false 2false 3true 4false 5true 6false 7false 8false 9false 10true "; b.String() != want {
		t.Errorf("lines %s, want %s", b.String(), want)
	}
}

// A line longer than the reader's buffer is one line; past grepMaxLine it
// is matched on its first grepMaxLine bytes, and the numbering goes on.
func TestGrepLongLines(t *testing.T) {
	long := strings.Repeat("x", 200<<10) + "needle"
	huge := "needle" + strings.Repeat("y", grepMaxLine+10) + "tail"
	content := "a\n" + long + "\nneedle 3\n" + huge + "\nneedle 5\n"
	got, _ := searchString(regexp.MustCompile(`needle`), content, 0)
	var nums []int
	for _, l := range got {
		nums = append(nums, l.num)
	}
	if fmt.Sprint(nums) != "[2 3 4 5]" {
		t.Errorf("matching lines %v, want [2 3 4 5]", nums)
	}
	if got, _ := searchString(regexp.MustCompile(`tail`), content, 0); len(got) != 0 {
		t.Errorf("matched past grepMaxLine: %v", got[0].num)
	}
}

// A NUL byte anywhere makes the file binary: skipped whole, even when
// lines before it matched.
func TestGrepBinaryAfterMatches(t *testing.T) {
	content := "match\n" + strings.Repeat("filler line\n", 100000) + "bin\x00ary\n" // the NUL well past the first buffer
	if got, ok := searchString(regexp.MustCompile(`match`), content, 0); ok {
		t.Errorf("a binary file gave %d lines", len(got))
	}
}

// A large file is read as a stream: searching it allocates a small,
// fixed amount, not its size (issue 26 builds on this).
func TestGrepStreamsLargeFiles(t *testing.T) {
	dir := t.TempDir()
	line := []byte("\tif err := conn.SetDeadline(t); err != nil { return err }\n")
	n := (64 << 20) / len(line)
	big := append(bytes.Repeat(line, n), "SetReadDeadline(t)\n"...)
	if err := os.WriteFile(filepath.Join(dir, "big.go"), big, 0o600); err != nil {
		t.Fatal(err)
	}
	big = nil
	ws, err := NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := runGrep(context.Background(), ws, grepParams{Pattern: `SetReadDeadline\(\w+\)`}, "")
	runtime.ReadMemStats(&after)
	wantOutput(t, res, false, fmt.Sprintf("big.go:%d:SetReadDeadline(t)", n+1))
	// ~0.2 MB measured; -race's instrumentation adds ~10 MB. Reading the
	// file whole would add its 64 MB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("searching a 64 MB file allocated %d MB", alloc>>20)
	}
}

// A FIFO, even one named .gitignore, is never opened for reading: the
// search neither hangs nor reads it.
func TestGrepSkipsFIFOs(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a.go": "Hello\n", "sub/b.go": "Hello\n"})
	for _, name := range []string{"fifo.go", ".gitignore", "sub/.gitignore"} {
		if err := syscall.Mkfifo(filepath.Join(ws.Root(), name), 0o600); err != nil {
			t.Skip("mkfifo:", err)
		}
	}
	done := make(chan Result, 1)
	go func() { done <- runGrep(context.Background(), ws, grepParams{Pattern: "Hello"}, "") }()
	select {
	case res := <-done:
		wantOutput(t, res, false, "a.go:1:Hello", "sub/b.go:1:Hello", "(2 matches in 2 files)")
	case <-time.After(60 * time.Second):
		t.Fatal("grep hung on a FIFO")
	}
}
