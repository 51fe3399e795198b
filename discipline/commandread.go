package discipline

import (
	"strconv"
	"strings"
)

// CommandRead recognises a shell command that only prints a region of one
// file: cat, nl, less, more, head, tail, sed -n 'A,Bp' or awk
// 'NR>=A && NR<=B', alone or as a pipeline of such filters after the
// first (head -n 30 f | tail -n 10 prints lines 21-30), after a "cd DIR
// &&", with stderr discarded or the file on stdin. It returns the
// path as written (the agent resolves it against the working directory,
// stats the file and fills a Read), the first line (negative: the last
// -from lines) and the last line (0: to the end). Redirections, command
// lists, substitutions, several files and filters that select by content
// are not reads of one region.
func CommandRead(command string) (path string, from, to int, ok bool) {
	dir, command, ok := readPrefix(command)
	if !ok {
		return "", 0, 0, false
	}
	parts, ok := pipeline(command)
	if !ok {
		return "", 0, 0, false
	}
	words, plain := shellWords(parts[0])
	if !plain || len(words) < 2 {
		return "", 0, 0, false
	}
	path, from, to, ok = fileRead(words)
	ok = ok && path != ""
	for _, part := range parts[1:] {
		if !ok {
			break
		}
		words, plain := shellWords(part)
		if !plain || len(words) == 0 {
			return "", 0, 0, false
		}
		from, to, ok = filter(words, from, to)
	}
	if !ok {
		return "", 0, 0, false
	}
	return joinDir(dir, path), from, to, true
}

// fileRead reads the first command of a pipeline: one that names the file.
func fileRead(words []string) (string, int, int, bool) {
	switch words[0] {
	case "cat", "less", "more", "nl":
		return wholeFile(words[1:])
	case "head":
		return headTail(words[1:], false)
	case "tail":
		return headTail(words[1:], true)
	case "sed":
		return sedPrint(words[1:])
	case "awk":
		return awkPrint(words[1:])
	}
	return "", 0, 0, false
}

// pipeline splits a command at unquoted single "|" into its parts; a
// part that is empty, or "||", is not a pipeline of filters.
func pipeline(cmd string) ([]string, bool) {
	var parts []string
	var quote rune
	start := 0
	for i, r := range cmd {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
		case r == '\'' || r == '"':
			quote = r
		case r == '|':
			parts = append(parts, cmd[start:i])
			start = i + 1
		}
	}
	parts = append(parts, cmd[start:])
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			return nil, false
		}
	}
	return parts, quote == 0
}

// shellWords splits a command into words with simple quoting; plain is
// false when an unquoted shell operator appears.
func shellWords(cmd string) (words []string, plain bool) {
	var cur strings.Builder
	var quote rune
	inWord := false
	for _, r := range cmd {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case strings.ContainsRune("|;&<>`$()\n\\*?", r):
			return nil, false
		case r == ' ' || r == '\t':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, true
}

// wholeFile accepts flags (none changes which lines print) and one file.
func wholeFile(args []string) (string, int, int, bool) {
	file := ""
	for i, a := range args {
		if a == "--" && i == len(args)-2 {
			return args[i+1], 1, 0, true
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			continue
		}
		if file != "" {
			return "", 0, 0, false
		}
		file = a
	}
	return file, 1, 0, file != ""
}

// headTail parses head or tail with -n N, -nN, -N, --lines=N or tail's +N.
func headTail(args []string, tail bool) (string, int, int, bool) {
	n, fromStart, file, ok := headTailArgs(args, tail)
	switch {
	case !ok || file == "" || n == 0:
		return "", 0, 0, false
	case !tail:
		return file, 1, n, true
	case fromStart:
		return file, n, 0, true
	}
	return file, -n, 0, true
}

// headTailArgs reads head's or tail's count and optional file.
func headTailArgs(args []string, tail bool) (n int, fromStart bool, file string, ok bool) {
	n = 10
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := ""
		switch {
		case a == "-n" && i+1 < len(args):
			i++
			val = args[i]
		case strings.HasPrefix(a, "--lines="):
			val = strings.TrimPrefix(a, "--lines=")
		case strings.HasPrefix(a, "-n"):
			val = a[2:]
		case strings.HasPrefix(a, "-") && len(a) > 1:
			val = a[1:] // -20; anything else (-c, -f) fails to parse below
		default:
			if file != "" {
				return 0, false, "", false
			}
			file = a
			continue
		}
		if tail && strings.HasPrefix(val, "+") {
			fromStart, val = true, val[1:]
		}
		v, err := strconv.Atoi(val)
		if err != nil || v < 0 {
			return 0, false, "", false
		}
		n = v
	}
	return n, fromStart, file, true
}

// sedScript is the one sed program that prints a line range: with -n,
// A,Bp (B a line, $ or +N) and an optional ;Nq after it; without, A,B!d
// or Nq (the first N lines).
var (
	sedScript = lazyRegexp(`^([0-9]+)(?:\s*,\s*([0-9]+|\$|\+[0-9]+))?\s*p(?:\s*;\s*([0-9]+)q)?\s*;?$`)
	sedDelete = lazyRegexp(`^([0-9]+)\s*,\s*([0-9]+|\$)\s*!\s*d$|^([0-9]+)q$`)
)

// sedPrint parses sed -n 'A,Bp' FILE (also -ne, -n -e, A,$p, Ap, A,+Np,
// A,Bp;Bq) and sed 'A,B!d' FILE or sed Nq FILE.
func sedPrint(args []string) (string, int, int, bool) {
	quiet, script, file := false, "", ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-n" || a == "--quiet" || a == "--silent":
			quiet = true
		case a == "-ne" && i+1 < len(args):
			quiet, script = true, args[i+1]
			i++
		case a == "-e" && i+1 < len(args) && script == "":
			script = args[i+1]
			i++
		case strings.HasPrefix(a, "-"):
			return "", 0, 0, false
		case script == "":
			script = a
		case file == "":
			file = a
		default:
			return "", 0, 0, false
		}
	}
	from, to, ok := sedLines(strings.TrimSpace(script), quiet)
	if !ok || from < 1 || (to != 0 && to < from) {
		return "", 0, 0, false
	}
	return file, from, to, true
}

// sedLines is the range a sed program prints (to 0: the end).
func sedLines(script string, quiet bool) (from, to int, ok bool) {
	if !quiet {
		m := sedDelete().FindStringSubmatch(script)
		switch {
		case m == nil:
			return 0, 0, false
		case m[3] != "":
			n, _ := strconv.Atoi(m[3])
			return 1, n, true
		}
		from, _ = strconv.Atoi(m[1])
		to, _ = strconv.Atoi(m[2]) // "$": 0, the end
		return from, to, true
	}
	m := sedScript().FindStringSubmatch(script)
	if m == nil {
		return 0, 0, false
	}
	from, _ = strconv.Atoi(m[1])
	to = from
	switch {
	case m[2] == "":
	case m[2] == "$":
		to = 0
	case strings.HasPrefix(m[2], "+"):
		n, _ := strconv.Atoi(m[2][1:])
		to = from + n
	default:
		to, _ = strconv.Atoi(m[2])
	}
	if m[3] != "" { // sed quits at line q: nothing after it prints
		q, _ := strconv.Atoi(m[3])
		to = minEnd(to, q)
	}
	return from, to, true
}
