package discipline

import (
	"path"
	"strings"
)

// readPrefix undoes the spellings around a read that do not change what it
// prints: a leading "cd DIR &&" (the path is then DIR's), a discarded or
// merged stderr (2>/dev/null, 2>&1) and a file given on standard input
// (sed -n '5,9p' < f). It returns the directory ("" for none) and the
// command left; ok is false when what is left is not a plain command.
func readPrefix(command string) (dir, rest string, ok bool) {
	rest = strings.TrimSpace(command)
	for strings.HasPrefix(rest, "cd ") {
		head, tail, found := strings.Cut(rest, "&&")
		words, plain := shellWords(head)
		if !found || !plain || len(words) != 2 || strings.HasPrefix(words[1], "-") || strings.HasPrefix(words[1], "~") {
			return "", "", false
		}
		dir = joinDir(dir, words[1])
		rest = strings.TrimSpace(tail)
	}
	rest = stderrRedirect().ReplaceAllString(rest, "$1")
	if m := stdinFile().FindStringSubmatch(rest); m != nil {
		rest = m[1] + " " + m[2] + m[3] // the file becomes the first command's operand
	}
	return dir, rest, true
}

// joinDir is dir/p, or p when it is absolute.
func joinDir(dir, p string) string {
	if dir == "" || path.IsAbs(p) {
		return p
	}
	return path.Join(dir, p)
}

var (
	stderrRedirect = lazyRegexp(`\s+2>(?:/dev/null|&1)(\s|$)`)
	stdinFile      = lazyRegexp(`^([^<|]*?)\s*<\s*([^\s<>|&;'"]+)(\s*\|.*)?$`)
)
