package tools

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// engines are the grep back ends to test: "go", and "rg" with rg's path
// ("" when it is not installed: that engine's subtests skip, visibly).
func engines() map[string]string {
	return map[string]string{"go": "", "rg": rgPath()}
}

// skipMissing skips an rg subtest when rg is not installed.
func skipMissing(t *testing.T, engine, rg string) {
	t.Helper()
	if engine == "rg" && rg == "" {
		t.Skip("rg is not installed (apt-get install ripgrep): the rg engine is not tested")
	}
}

func TestGrep(t *testing.T) {
	ws := newTestWS(t, map[string]string{
		".gitignore":   "gen/\n",
		"a.go":         "package a\n\nfunc Hello() {}\n\nfunc helper() {}\n",
		"b/b.go":       "package b\n// Hello there\nvar x = 1\nvar y = 2\nvar z = 3\nfunc Hello2() {}\n",
		"b/notes.txt":  "Hello in text\n",
		"gen/gen.go":   "func Hello() {}\n",
		"bin.dat":      "Hello\x00binary",
		"crlf.txt":     "Hello\r\nworld\r\n",
		"sp ace/ü.go":  "// Hello unicode\n",
		".hidden/h.go": "// Hello hidden\n",
	})
	tests := []struct {
		name  string
		args  grepParams
		isErr bool
		want  []string
		not   []string
	}{
		{"simple", grepParams{Pattern: "func Hello"}, false,
			[]string{"a.go:3:func Hello() {}\n", "b/b.go:6:func Hello2() {}\n", "(2 matches in 2 files)"}, []string{"gen/", "helper"}},
		{"ignore case", grepParams{Pattern: "FUNC HEL", IgnoreCase: true}, false, []string{"a.go:5:func helper() {}", "(3 matches in 2 files)"}, []string{"notes"}},
		{"include", grepParams{Pattern: "Hello", Include: "*.txt"}, false, []string{"b/notes.txt:1:Hello in text", "crlf.txt:1:Hello\n"}, []string{".go:"}},
		{"include path glob", grepParams{Pattern: "Hello", Include: "b/*.go"}, false, []string{"b/b.go:2:"}, []string{"a.go", "notes"}},
		{"path", grepParams{Pattern: "Hello", Path: "b"}, false, []string{"b/b.go:2:// Hello there", "b/notes.txt:1:"}, []string{"a.go"}},
		{"single file", grepParams{Pattern: "var", Path: "b/b.go"}, false, []string{"b/b.go:3:var x = 1"}, nil},
		{"context", grepParams{Pattern: "Hello2", Context: 1}, false, []string{"b/b.go-5-var z = 3\nb/b.go:6:func Hello2() {}\n"}, nil},
		{"context separators", grepParams{Pattern: "^package|Hello2", Path: "b/b.go", Context: 1}, false,
			[]string{"b/b.go:1:package b\nb/b.go-2-// Hello there\n--\nb/b.go-5-var z = 3\nb/b.go:6:"}, nil},
		{"hidden and unicode paths", grepParams{Pattern: "Hello (hidden|unicode)"}, false, []string{".hidden/h.go:1:", "sp ace/ü.go:1:"}, nil},
		{"binary skipped", grepParams{Pattern: "binary"}, false, []string{"no matches"}, nil},
		{"no match", grepParams{Pattern: "zzz"}, false, []string{`no matches for "zzz"`}, nil},
		{"invalid regexp", grepParams{Pattern: "func("}, true, []string{"invalid regular expression"}, nil},
		{"empty", grepParams{}, true, []string{"pattern is required"}, nil},
		{"bad context", grepParams{Pattern: "x", Context: 99}, true, []string{"context must be"}, nil},
		{"missing path", grepParams{Pattern: "x", Path: "nope"}, true, []string{"path not found"}, nil},
	}
	for ename, rg := range engines() {
		for _, tc := range tests {
			t.Run(ename+"/"+tc.name, func(t *testing.T) {
				skipMissing(t, ename, rg)
				res := runGrep(context.Background(), ws, tc.args, rg)
				wantOutput(t, res, tc.isErr, tc.want...)
				for _, s := range tc.not {
					if strings.Contains(res.Output, s) {
						t.Errorf("output has %q:\n%s", s, res.Output)
					}
				}
			})
		}
	}
}

func TestGrepCapped(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "match %d\n", i)
	}
	ws := newTestWS(t, map[string]string{"many.txt": b.String(), "more.txt": "match x\n"})
	for ename, rg := range engines() {
		t.Run(ename, func(t *testing.T) {
			skipMissing(t, ename, rg)
			res := runGrep(context.Background(), ws, grepParams{Pattern: "match"}, rg)
			wantOutput(t, res, false, "(301 matches in 2 files; showing the first 200")
			if n := strings.Count(res.Output, "\nmany.txt:"); n != 199 { // the first line has no leading newline
				t.Errorf("%d lines shown", n)
			}
		})
	}
}

// The Go engine must print what rg prints, on a real tree.
func TestGrepAgreesWithRG(t *testing.T) {
	t.Parallel() // CPU-bound under -race; overlaps the other long tests after the serial ones
	rg := rgPath()
	if rg == "" {
		t.Skip("rg not installed")
	}
	if testing.Short() {
		t.Skip("walks the Go standard library")
	}
	ws := stdlibWorkspace(t)
	for _, p := range []grepParams{
		{Pattern: `func \(b \*Buffer\) Write`, Path: "bytes"},
		{Pattern: `TODO\(`, Include: "*.go", Path: "net"},
		{Pattern: `^package main$`, Include: "*.go", Path: "cmd/go"},
		{Pattern: `errors\.new`, IgnoreCase: true, Path: "os", Context: 2},
		{Pattern: `sync\.Mutex`, Include: "**/*_test.go", Path: "net/http"},
		{Pattern: `^func \(\w+ \*\w+\) Close\(\) error \{$`, Include: "*.go", Path: "cmd/vendor"}, // vendor trees with .gitignore files
	} {
		t.Run(p.Pattern, func(t *testing.T) {
			want := runGrep(context.Background(), ws, p, rg)
			got := runGrep(context.Background(), ws, p, "")
			if got.Output != want.Output {
				t.Errorf("go and rg differ\n--- rg:\n%s\n--- go:\n%s", head(want.Output), head(got.Output))
			}
			if strings.HasPrefix(want.Output, "no matches") {
				t.Errorf("pattern found nothing; the test proves little")
			}
		})
	}
}

func head(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

func stdlibWorkspace(t testing.TB) *Workspace {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("no go env:", err)
	}
	ws, err := NewWorkspace(filepath.Join(strings.TrimSpace(string(out)), "src"))
	if err != nil {
		t.Skip(err)
	}
	return ws
}

// rg's --glob overrides .gitignore (rgArgs passes include as --glob), so
// only the Go engine is held to this: an include glob never brings back
// an ignored file.
func TestGrepIncludeKeepsIgnores(t *testing.T) {
	ws := newTestWS(t, map[string]string{
		".gitignore": "*.pb.go\n", "api.pb.go": "Hello\n", "main.go": "Hello\n",
		"src/gen.pb.go": "Hello\n", "src/x.go": "Hello\n",
	})
	for ename, rg := range engines() {
		t.Run(ename, func(t *testing.T) {
			skipMissing(t, ename, rg)
			res := runGrep(context.Background(), ws, grepParams{Pattern: "Hello", Include: "*.go"}, rg)
			wantOutput(t, res, false, "main.go:1:Hello", "src/x.go:1:Hello", "(2 matches in 2 files)")
			res = runGrep(context.Background(), ws, grepParams{Pattern: "Hello", Include: "src/*.go"}, rg)
			wantOutput(t, res, false, "src/x.go:1:Hello", "(1 matches in 1 files)")
		})
	}
}

// Over the cap both engines stop and say "more than" the cap.
func TestGrepOverCap(t *testing.T) {
	files := map[string]string{}
	line := strings.Repeat("match\n", grepMaxCollect/4)
	for i := range 6 {
		files[fmt.Sprintf("f%d.txt", i)] = line
	}
	ws := newTestWS(t, files)
	for ename, rg := range engines() {
		t.Run(ename, func(t *testing.T) {
			skipMissing(t, ename, rg)
			res := runGrep(context.Background(), ws, grepParams{Pattern: "match"}, rg)
			wantOutput(t, res, false, "(more than 20,000 matches in ")
		})
	}
}
