package tools

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// A generated tree for grep's tests and benchmarks: source-like text in
// nested directories, with what a search must get right planted in it
// (.gitignore files at several levels and what they exclude, a .git
// directory, binary files, symlinks, hidden files, CRLF and unterminated
// lines, non-ASCII text including the runes that fold to ASCII k and s).

// treeWords are the words lines are made of.
var treeWords = []string{
	"func", "return", "if", "err", "!=", "nil", "{", "}", "ctx", "context.Context",
	"var", "const", "package", "main", "import", "Buffer", "Write", "Handler",
	"handler", "errors.New", "Errors.new", "sync.Mutex", "TODO(x):", "FIXME", "color",
	"colour", "http.Request", "0x1f", "2024-06-01", "café", "CAFÉ", "\u212aelvin",
	"kelvin", "maſk", "mask", "x", "xxx", "y", "z", "=", ":=", "(", ")", "//",
	"string", "int", "[]byte", "Hello", "world", "naïve", "日本語", "Ωmega",
}

// treeLine returns one generated line, with its newline.
func treeLine(r *rand.Rand) string {
	var b bytes.Buffer
	for range r.IntN(3) {
		b.WriteByte('\t')
	}
	switch r.IntN(4096) {
	case 0:
		return "\tconn.SetReadDeadline(deadline)\n" // rare: the big tree's benchmark looks for it
	case 1, 2, 3, 4, 5, 6, 7, 8, 9, 10:
		return "func Serve(ctx context.Context, w Writer) error {\n"
	}
	switch r.IntN(40) {
	case 0:
		return "package main\n"
	case 1:
		return "\n"
	}
	for i := range 2 + r.IntN(10) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(treeWords[r.IntN(len(treeWords))])
	}
	b.WriteByte('\n')
	return b.String()
}

// treePool is n bytes of generated lines to cut files from.
func treePool(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(treeLine(r))
	}
	return b.Bytes()
}

// writeTree fills dir with about total bytes of files and the planted
// cases, deterministically for a seed.
func writeTree(tb testing.TB, dir string, total int64, seed uint64) {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	pool := treePool(r, 8<<20)
	put := func(rel string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	cut := func(size int) []byte {
		start := r.IntN(len(pool) - size)
		start += bytes.IndexByte(pool[start:], '\n') + 1
		end := min(len(pool), start+size)
		return pool[start:end] // may end mid-line: an unterminated last line
	}
	plant(put, cut)
	var written int64
	for i := 0; written < total; i++ {
		size := 512 << r.IntN(10) // 512 B to 256 KB, log-uniform
		size += r.IntN(size)
		rel := fmt.Sprintf("d%02d/s%02d/f%05d%s", i%16, (i/16)%16, i, []string{".go", ".txt", ".md", "_test.go"}[r.IntN(4)])
		put(rel, cut(size))
		written += int64(size)
	}
}

// rootGitignore is the tree's top .gitignore, as long as a real project's.
const rootGitignore = `# build output
build/
dist/
/bin/
*.o
*.a
*.so
*.exe
*.test
*.out
coverage/
*.log
/top-only.txt
tmp_*
node_modules/
.cache/
*.pyc
__pycache__/
.env
.env.local
*.swp
*~
.DS_Store
.idea/
.vscode/
vendor/
`

// plant writes the cases a search must get right.
func plant(put func(string, []byte), cut func(int) []byte) {
	put(".gitignore", []byte(rootGitignore))
	put("d03/.gitignore", []byte("*.tmp\ngenerated/\n"))
	put("d03/s01/.gitignore", []byte("secret.txt\n"))
	for _, rel := range []string{"app.log", "d01/build/out.go", "top-only.txt", "d02/tmp_x.txt",
		"d03/a.tmp", "d03/generated/g.go", "d03/s01/secret.txt", ".git/HEAD.go", "d04/.git/x.go"} {
		put(rel, cut(4096)) // ignored: never in the results
	}
	// rg's --glob overrides .gitignore, so with include "*.go" rg would show
	// an ignored .go file; the Go engine does not (TestGrepIncludeKeepsIgnores).
	// No ignored file matches an include of the corpus.
	put("d05/top-only.txt", cut(2048)) // anchored pattern: only the top one is ignored
	put("d05/.hidden/h.go", cut(2048))
	put("d05/.git", []byte("gitdir: ../elsewhere\nfunc Serve(ctx context.Context, w Writer) error {\n"))
	put("d05/bin.dat", append([]byte("Hello\x00binary "), cut(4096)...))
	put("d05/crlf.txt", bytes.ReplaceAll(cut(4096), []byte("\n"), []byte("\r\n")))
	put("d05/empty.go", nil)
	put("d05/nonl.go", []byte("package main"))
	put("d05/long.txt", bytes.Repeat([]byte("context.Context naïve "), 400))
	put("d05/fold.txt", []byte("\u212aELVIN\nMAſK\nkelvin\nmask\nCafé\n"))
	put("d06/sp ace/ü.go", cut(2048))
}

// linkTree adds symlinks (to a file and a directory inside dir, and one
// leading out of it), which a search must not follow.
func linkTree(tb testing.TB, dir, outside string) {
	tb.Helper()
	for name, target := range map[string]string{
		"d07/link.go": "../d05/long.txt", "d07/linkdir": "../d05", "d07/out": outside,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			tb.Fatal(err)
		}
	}
}
