// Command chroma-compare prints what chroma's registries answer for every
// file of chroma's lexer test data: the lexer found by file name, by
// extension, by content (Analyse) and by MIME type, and a hash of the file
// highlighted. verify.sh runs it against upstream chroma and against the
// patched copy in third_party/chroma and compares the two outputs, so the
// lazy registries must answer exactly as the eager ones did.
package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/quick"
	"github.com/alecthomas/chroma/v2/styles"
)

func name(l chroma.Lexer) string {
	if l == nil {
		return "<nil>"
	}
	return l.Config().Name
}

func main() {
	fmt.Println(strings.Join(lexers.Names(true), ","))
	fmt.Println(strings.Join(styles.Names(), ","))
	fmt.Println("fallback style:", styles.Fallback.Name, styles.Get("no such style").Name)
	files, err := filepath.Glob(filepath.Join(os.Args[1], "*.actual"))
	if err != nil || len(files) == 0 {
		fmt.Fprintln(os.Stderr, "chroma-compare: no *.actual files in", os.Args[1])
		os.Exit(1)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "chroma-compare:", err)
			os.Exit(1)
		}
		base := strings.TrimSuffix(filepath.Base(f), ".actual")
		ext := strings.TrimPrefix(filepath.Ext(base), ".")
		fmt.Printf("%s match=%s get=%s analyse=%s mime=%s\n", base, name(lexers.Match(base)),
			name(lexers.Get(ext)), name(lexers.Analyse(string(b))), name(lexers.MatchMimeType("text/x-"+ext)))
		var out strings.Builder
		if err := quick.Highlight(&out, string(b), ext, "terminal256", "monokai"); err != nil {
			fmt.Println("  highlight error:", err)
		}
		fmt.Printf("  highlight %x\n", sha256.Sum256([]byte(out.String())))
	}
	for _, n := range []string{"go", "python", "bash", "sh", "js", "rust", "php", "phtml", "dns", "mysql",
		"zed", "html", "markdown", "md", "Go HTML Template", "emacs-lisp", "common-lisp", "sql"} {
		fmt.Printf("get %s=%s\n", n, name(lexers.Get(n)))
	}
}
