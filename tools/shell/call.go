package shell

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// callExpr evaluates a simple command's words and runs it.
func (a *analyser) callExpr(x *syntax.CallExpr) {
	if len(x.Args) == 0 {
		a.assigns(x.Assigns, false)
		return
	}
	text := a.text(x)
	env := a.assigns(x.Assigns, true)
	var args []Word
	for _, w := range x.Args {
		args = append(args, a.words(w)...)
	}
	a.run(&Call{Args: args, Env: env, Dirs: slices.Clone(a.dirs), Via: slices.Clone(a.via), Nested: a.nested, Text: text})
}

// problemBuiltins run strings or files as code, or change how the rest of
// the script is read.
var problemBuiltins = map[string]string{
	"source": "source runs the commands in a file keel does not read",
	".":      ". runs the commands in a file keel does not read",
	"trap":   "trap runs a command string later",
	"enable": "enable can load a builtin from a shared library",
	"hash":   "hash can point a command name at another program",
	"fc":     "fc runs commands from the history in an editor",
	"shopt":  "shopt changes how bash reads the rest of the command",
	"alias":  "alias changes what a command name runs",
	"exec":   "exec replaces the shell or redirects the rest of the script",
	"eval":   "eval runs a string as a command",
}

// run records a call, after taking off wrappers and analysing the scripts
// it runs (bash -c, eval, find -exec).
func (a *analyser) run(c *Call) {
	if len(c.Args) == 0 {
		return
	}
	prog := c.Program()
	if prog == "" {
		a.script.Calls = append(a.script.Calls, c)
		a.problem("the program to run comes from an expansion keel cannot check", nil)
		a.script.Problems[len(a.script.Problems)-1].Text = c.Text
		return
	}
	if why, ok := problemBuiltins[prog]; ok {
		a.script.Problems = append(a.script.Problems, Problem{What: why, Text: c.Text, Opaque: !a.codeBuiltin(c, prog)})
		if prog == "eval" || prog == "exec" || prog == "trap" {
			a.script.Calls = append(a.script.Calls, c)
			return
		}
	}
	if assigners[prog] != nil {
		a.assigningCall(c, prog)
	}
	_, isShell := shells[prog]
	switch {
	case prog == "cd" || prog == "pushd" || prog == "popd":
		a.changeDir(c)
	case prog == "set":
		a.setBuiltin(c)
	case wrappers[prog] != nil:
		if inner := a.unwrap(c, prog); inner != nil {
			if prog == "sudo" || prog == "doas" {
				a.script.Calls = append(a.script.Calls, c)
			}
			a.run(inner)
			return
		}
	case isShell:
		if a.shellScript(c, prog) {
			return
		}
	case interpreters[prog] && readsCodeFromStdin(c.Args[1:]):
		// Not opaque: like python script.py, a program keel does not read.
		a.script.Problems = append(a.script.Problems, Problem{What: prog + " runs code from its standard input", Text: c.Text})
	case prog == "find":
		a.findExec(c)
	}
	a.script.Calls = append(a.script.Calls, c)
}

// changeDir follows cd, pushd and popd: each possible directory gains
// the target (cd may fail, so the old ones stay possible).
func (a *analyser) changeDir(c *Call) {
	args := c.Args[1:]
	physical := false
	for len(args) > 0 && args[0].Known() && strings.HasPrefix(args[0].Value, "-") && args[0].Value != "-" {
		if args[0].Value == "--" {
			args = args[1:]
			break
		}
		physical = physical || strings.Contains(args[0].Value, "P")
		args = args[1:]
	}
	var target string
	switch {
	case c.Program() == "popd" || c.Program() == "pushd" && len(args) == 0:
		return // back to a directory already possible
	case len(args) == 0:
		target = "~"
	case !args[0].Known() || args[0].Value == "-" || strings.HasPrefix(args[0].Value, "+") ||
		physical && strings.Contains(args[0].Value, ".."):
		a.dirs = appendUnique(a.dirs, UnknownDir)
		return
	default:
		target = args[0].Value
	}
	for _, d := range slices.Clone(a.dirs) {
		a.dirs = appendUnique(a.dirs, joinDir(d, target))
	}
	if len(a.dirs) > 32 {
		a.dirs = []string{UnknownDir}
	}
}

// joinDir is where cd target leads from d, as bash's logical cd computes
// it: absolute and home targets replace d, relative ones are joined.
func joinDir(d, target string) string {
	switch {
	case d == UnknownDir:
		return UnknownDir
	case strings.HasPrefix(target, "/"), target == "~", strings.HasPrefix(target, "~/"):
		return path.Clean(target)
	case d == "":
		return path.Clean(target)
	}
	return path.Join(d, target)
}

// setBuiltin allows set's harmless options (-e, -u, -x, -o pipefail, …).
// -a exports every later assignment, -k moves assignments anywhere, -P
// makes cd physical, posix mode changes parsing: those are problems.
func (a *analyser) setBuiltin(c *Call) {
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.Known() {
			a.opaque("set with an argument keel cannot check", c)
			return
		}
		v := w.Value
		switch {
		case v == "--" || v == "-" || !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+"):
			return // the rest are positional parameters
		case strings.ContainsRune(v[1:], 'o'):
			if i+1 >= len(args) || !safeSetOptions[args[i+1].Value] || strings.Trim(v[1:], "euxvfCbhBHETnmo") != "" {
				a.opaque("set "+v+" with an option that changes how bash runs the rest of the command", c)
				return
			}
			i++
		case strings.Trim(v[1:], "euxvfCbhBHETnm") != "":
			a.opaque("set "+v+" changes how bash runs the rest of the command", c)
			return
		}
	}
}

var safeSetOptions = map[string]bool{"pipefail": true, "errexit": true, "nounset": true, "xtrace": true, "verbose": true,
	"noclobber": true, "noglob": true, "errtrace": true, "functrace": true, "braceexpand": true, "hashall": true,
	"histexpand": true, "monitor": true, "noexec": true, "notify": true}
