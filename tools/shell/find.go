package shell

import "strings"

// findOneArg are find's tests and actions that take one argument.
var findOneArg = map[string]bool{
	"-name": true, "-iname": true, "-path": true, "-ipath": true, "-wholename": true, "-iwholename": true,
	"-regex": true, "-iregex": true, "-lname": true, "-ilname": true, "-newer": true, "-anewer": true, "-cnewer": true,
	"-perm": true, "-type": true, "-xtype": true, "-size": true, "-user": true, "-group": true, "-uid": true, "-gid": true,
	"-links": true, "-inum": true, "-samefile": true, "-used": true, "-mtime": true, "-atime": true, "-ctime": true,
	"-mmin": true, "-amin": true, "-cmin": true, "-maxdepth": true, "-mindepth": true, "-fstype": true, "-context": true,
	"-printf": true, "-regextype": true, "-files0-from": true,
}

// findNoArg are find's tests, actions and operators without an argument
// that only read.
var findNoArg = map[string]bool{
	"-print": true, "-print0": true, "-ls": true, "-prune": true, "-quit": true, "-true": true, "-false": true,
	"-empty": true, "-executable": true, "-readable": true, "-writable": true, "-nouser": true, "-nogroup": true,
	"-depth": true, "-d": true, "-mount": true, "-xdev": true, "-noleaf": true, "-ignore_readdir_race": true,
	"-noignore_readdir_race": true, "-follow": true, "-daystart": true, "-warn": true, "-nowarn": true,
	"-a": true, "-and": true, "-o": true, "-or": true, "-not": true, "!": true, "(": true, ")": true, ",": true,
	"-help": true, "--help": true, "-version": true, "--version": true,
}

// findWrites are find's actions that write a file named by their argument.
var findWrites = map[string]int{"-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2}

// findReadOnly walks find's expression: only known tests and actions,
// no -delete, and -exec commands are calls of their own (judged apart).
func findReadOnly(args []Word) bool {
	expr := args[len(findPathWords(args)):]
	for i := 0; i < len(expr); i++ {
		w := expr[i]
		switch {
		case !w.Known():
			return false
		case findOneArg[w.Value]:
			i++
		case findNoArg[w.Value]:
		case findWrites[w.Value] > 0:
			i += findWrites[w.Value]
		case strings.HasPrefix(w.Value, "-newer") && len(w.Value) == 8:
			i++
		case w.Value == "-exec" || w.Value == "-execdir" || w.Value == "-ok" || w.Value == "-okdir":
			i = findExecEnd(expr, i)
		default:
			return false // -delete, or something keel does not know
		}
	}
	return true
}

// findExecEnd is the index of the ; or + ending the -exec at i.
func findExecEnd(expr []Word, i int) int {
	for j := i + 1; j < len(expr); j++ {
		if expr[j].Value == ";" || expr[j].Value == "+" && expr[j-1].Value == "{}" {
			return j
		}
	}
	return len(expr)
}

// findPathWords are the leading options (-H, -L, -P, -D x, -Olevel) and
// the starting points, before the expression.
func findPathWords(args []Word) []Word {
	i := 0
	for i < len(args) && args[i].Known() {
		v := args[i].Value
		switch {
		case v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O"):
			i++
		case v == "-D" && i+1 < len(args):
			i += 2
		case strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == ",":
			return args[:i]
		default:
			i++
		}
	}
	return args[:i]
}

// findEffect: find reads its starting points; -fprint and friends write
// files; an argument keel cannot see may be -exec or -delete.
func findEffect(args []Word, e *Effect) {
	starts := []Word{}
	for _, w := range findPathWords(args) {
		if !strings.HasPrefix(w.Value, "-") {
			starts = append(starts, w)
		}
	}
	if len(starts) == 0 {
		starts = []Word{{Value: "."}}
	}
	expr := args[len(findPathWords(args)):]
	for i, w := range expr {
		if n := findWrites[w.Value]; n > 0 && i+1 < len(expr) {
			e.FlagWrites = append(e.FlagWrites, expr[i+1])
		}
		if w.Value == "-files0-from" && i+1 < len(expr) {
			starts = append(starts, expr[i+1])
		}
	}
	for _, w := range args {
		if !w.Known() {
			e.Blocker = "an argument keel cannot see may be -exec or -delete"
			return
		}
	}
	if findReadOnly(args) && len(e.FlagWrites) == 0 {
		e.ReadOnly = true
	}
	e.Reads = append(e.Reads, starts...)
}
