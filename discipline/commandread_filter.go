package discipline

import (
	"strconv"
	"strings"
)

// filter narrows a region [from, to] (to 0: the end; from negative: the
// last -from lines) by one pipeline stage that reads its input: head,
// tail, sed -n 'A,Bp', awk 'NR>=A && NR<=B', cat or nl. A stage whose
// result depends on the file's length keel does not know here is refused.
func filter(words []string, from, to int) (int, int, bool) {
	var a, b int // the stage's own lines, 1-based in its input; b 0: the end
	switch words[0] {
	case "cat", "nl":
		if _, _, _, ok := wholeFile(append(words[1:], "-")); !ok {
			return 0, 0, false
		}
		return from, to, true
	case "head", "tail":
		n, fromStart, file, ok := headTailArgs(words[1:], words[0] == "tail")
		if !ok || file != "" || n == 0 {
			return 0, 0, false
		}
		if words[0] == "tail" && !fromStart {
			return tailOf(from, to, n)
		}
		a, b = 1, n
		if fromStart {
			a, b = n, 0
		}
	case "sed", "awk":
		read := sedPrint
		if words[0] == "awk" {
			read = awkPrint
		}
		file, x, y, ok := read(words[1:])
		if !ok || file != "" {
			return 0, 0, false
		}
		a, b = x, y
	default:
		return 0, 0, false
	}
	return narrow(from, to, a, b)
}

// narrow selects lines a..b (b 0: the end) of the region [from, to].
func narrow(from, to, a, b int) (int, int, bool) {
	if from < 0 {
		return 0, 0, false // where the last lines start is unknown here
	}
	nf := from + a - 1
	nt := 0
	if b != 0 {
		nt = from + b - 1
	}
	if to != 0 && (nt == 0 || nt > to) {
		nt = to
	}
	if nt != 0 && nt < nf {
		return 0, 0, false
	}
	return nf, nt, true
}

// tailOf selects the last n lines of the region [from, to].
func tailOf(from, to, n int) (int, int, bool) {
	switch {
	case to != 0 && from > 0:
		return max(from, to-n+1), to, true
	case to == 0 && from == 1:
		return -n, 0, true
	case to == 0 && from < 0:
		return -min(n, -from), 0, true
	}
	return 0, 0, false
}

// awkRange matches the awk programs that print a line range by NR:
// NR>=A && NR<=B, NR>A && NR<B, NR==A, NR>=A, NR<=B and the range
// pattern NR==A,NR==B, each with an optional print action, or inside
// one: {if (NR>=A && NR<=B) print}.
var (
	awkCond   = lazyRegexp(`^NR\s*(>=|>|==|<=|<)\s*([0-9]+)$`)
	awkAction = lazyRegexp(`^\{\s*print(?:f)?(?:\s+(?:NR|\$0|"[^"]*"|,|\s)*)?\s*;?\s*\}$`)
	awkIf     = lazyRegexp(`^\{\s*if\s*\(([^(){}]+)\)\s*(\{?\s*print[^{}]*\}?)\s*;?\s*\}$`)
)

// awkPrint parses awk 'NR...' FILE (the file is optional in a pipeline).
func awkPrint(args []string) (string, int, int, bool) {
	if len(args) == 0 || len(args) > 2 || strings.HasPrefix(args[0], "-") {
		return "", 0, 0, false
	}
	file := ""
	if len(args) == 2 {
		file = args[1]
	}
	prog := strings.TrimSpace(args[0])
	if m := awkIf().FindStringSubmatch(prog); m != nil { // {if (NR>=A && NR<=B) print}
		prog = m[1] + " {" + strings.Trim(strings.TrimSpace(m[2]), "{}") + "}"
	}
	if i := strings.IndexByte(prog, '{'); i >= 0 {
		if !awkAction().MatchString(strings.TrimSpace(prog[i:])) {
			return "", 0, 0, false
		}
		prog = strings.TrimSpace(prog[:i])
	}
	from, to, ok := awkLines(prog)
	if !ok || from < 1 || (to != 0 && to < from) {
		return "", 0, 0, false
	}
	return file, from, to, true
}

// awkLines turns an awk pattern over NR into lines (to 0: the end).
func awkLines(prog string) (int, int, bool) {
	if a, b, ok := strings.Cut(prog, ","); ok { // NR==A,NR==B
		x, _, ok1 := awkLines(strings.TrimSpace(a))
		y, _, ok2 := awkLines(strings.TrimSpace(b))
		return x, y, ok1 && ok2 && strings.Contains(a, "==") && strings.Contains(b, "==")
	}
	from, to := 1, 0
	for _, cond := range strings.Split(prog, "&&") {
		m := awkCond().FindStringSubmatch(strings.TrimSpace(cond))
		if m == nil {
			return 0, 0, false
		}
		n, _ := strconv.Atoi(m[2])
		switch m[1] {
		case ">=":
			from = max(from, n)
		case ">":
			from = max(from, n+1)
		case "==":
			from, to = max(from, n), n
		case "<=":
			to = minEnd(to, n)
		case "<":
			to = minEnd(to, n-1)
		}
	}
	return from, to, to == 0 || to >= from
}

// minEnd is the smaller of two last lines, 0 meaning the end.
func minEnd(to, n int) int {
	if to == 0 || n < to {
		return n
	}
	return to
}
