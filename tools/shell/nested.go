package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shells and the dialect keel reads their -c scripts in ("" when it does
// not read them).
var shells = map[string]string{"bash": "bash", "sh": "posix", "dash": "posix", "ash": "posix",
	"zsh": "", "ksh": "", "mksh": "", "fish": "", "csh": "", "tcsh": "", "busybox": ""}

// interpreters run code given to them; with no script they read it from
// standard input.
var interpreters = map[string]bool{"python": true, "python3": true, "python2": true, "perl": true, "ruby": true,
	"node": true, "nodejs": true, "php": true, "lua": true, "Rscript": true, "R": true, "irb": true, "bun": true, "deno": true, "tclsh": true}

// shellScript analyses bash -c SCRIPT and sh -c SCRIPT as scripts of
// their own; a shell with no script reads one from its input, which keel
// cannot see. It reports whether c was fully handled (not to be recorded).
func (a *analyser) shellScript(c *Call, prog string) bool {
	lang := shells[prog]
	script, file, why := shellArgs(c.Args[1:])
	switch {
	case why != "":
		a.opaque(prog+" "+why, c)
	case script == nil && file == nil:
		a.opaque(prog+" runs a script from its standard input, which keel cannot see", c)
	case script == nil:
		return false // runs a script file: a call like any other
	case lang == "" || prog == "busybox":
		a.opaque("keel does not check "+prog+" scripts", c)
	case !script.Known():
		a.opaque(prog+" -c runs a script keel cannot see", c)
	default:
		variant := syntax.LangBash
		if lang == "posix" {
			variant = syntax.LangPOSIX
		}
		a.nestedScript(script.Value, prog+" -c", variant, c)
		return true
	}
	return false
}

// shellArgs finds the script of bash -c SCRIPT (the first operand after
// the options) or the script file. Options that change how the script is
// read (-O, --rcfile, -i, --posix) make it unreadable.
func shellArgs(args []Word) (script, file *Word, why string) {
	hasC := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.Known() {
			return nil, nil, "with an argument keel cannot check"
		}
		v := w.Value
		switch {
		case v == "--" || v == "-":
			if i+1 < len(args) {
				return pick(hasC, &args[i+1])
			}
			return nil, nil, ""
		case v == "-o" || v == "+o":
			if i+1 >= len(args) || !safeSetOptions[args[i+1].Value] {
				return nil, nil, "with options that change how it reads the script"
			}
			i++
		case v == "--norc" || v == "--noprofile" || v == "--login" || v == "--restricted":
		case strings.HasPrefix(v, "--"):
			return nil, nil, "with the option " + v
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
			if strings.Trim(v[1:], "ceuxvlrnpfsCbhBHET") != "" {
				return nil, nil, "with the option " + v
			}
			if strings.ContainsRune(v[1:], 's') {
				return nil, nil, ""
			}
			hasC = hasC || strings.HasPrefix(v, "-") && strings.ContainsRune(v, 'c')
		default:
			return pick(hasC, &args[i])
		}
	}
	if hasC {
		return nil, nil, "-c without a script"
	}
	return nil, nil, ""
}

func pick(hasC bool, w *Word) (*Word, *Word, string) {
	if hasC {
		return w, nil, ""
	}
	return nil, w, ""
}

// readsCodeFromStdin reports an interpreter given no script, no -c/-e
// code and no module to run: it reads its program from standard input.
func readsCodeFromStdin(args []Word) bool {
	for _, w := range args {
		v := w.Value
		switch {
		case !w.Known():
			return false
		case v == "-":
			return true
		case !strings.HasPrefix(v, "-"):
			return false // a script file
		case strings.HasPrefix(v, "--"):
			if v == "--eval" || v == "--print" || strings.HasPrefix(v, "--eval=") {
				return false
			}
		case strings.ContainsAny(v[1:2], "cemEpr"):
			return false // -c code, -e code, -m module, -p/-r code (node, php)
		}
	}
	return true
}

// findExec analyses the commands find runs with -exec, -execdir, -ok and
// -okdir; {} stands for each path found.
func (a *analyser) findExec(c *Call) {
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		switch args[i].Value {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		end := i + 1
		for end < len(args) && args[end].Value != ";" && !(args[end].Value == "+" && args[end-1].Value == "{}") {
			end++
		}
		if end >= len(args) || end == i+1 {
			a.opaque("find "+args[i].Value+" without a command and its ; or +", c)
			return
		}
		in := inner(c, substituteBraces(args[i+1:end]))
		in.Via[len(in.Via)-1] = "find " + args[i].Value
		if strings.HasSuffix(args[i].Value, "dir") {
			in.Dirs = []string{UnknownDir}
		}
		a.run(in)
		i = end
	}
}

// substituteBraces marks {} (a path find found) as a file name pattern.
func substituteBraces(args []Word) []Word {
	out := make([]Word, len(args))
	for i, w := range args {
		out[i] = w
		if strings.Contains(w.Value, "{}") {
			out[i].Glob = true
		}
	}
	return out
}
