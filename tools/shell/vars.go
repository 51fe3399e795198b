package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// safeEnvNames are variables a program may be given (VAR=x cmd, export
// VAR=x) without changing what it runs: build and test settings, locale,
// colour. Anything else (GIT_*, PAGER, EDITOR, GOFLAGS, LD_PRELOAD, PATH,
// NODE_OPTIONS, …) may make a program run another command, so a call
// that sets it cannot be proven safe.
var safeEnvNames = map[string]bool{
	"CGO_ENABLED": true, "GOOS": true, "GOARCH": true, "GOARM": true, "GOAMD64": true, "GO111MODULE": true,
	"GOMAXPROCS": true, "GOTRACEBACK": true, "GOEXPERIMENT": true, "GOWORK": true, "GOTOOLCHAIN": true,
	"GOPROXY": true, "GONOSUMDB": true, "GOPRIVATE": true, "GOFIPS140": true,
	"NODE_ENV": true, "CI": true, "DEBUG": true, "VERBOSE": true, "NO_COLOR": true, "FORCE_COLOR": true,
	"CLICOLOR": true, "CLICOLOR_FORCE": true, "TERM": true, "COLUMNS": true, "LINES": true, "TZ": true,
	"LANG": true, "LANGUAGE": true, "LC_ALL": true, "LC_CTYPE": true, "LC_MESSAGES": true, "LC_COLLATE": true,
	"RUST_BACKTRACE": true, "RUST_LOG": true, "RUST_TEST_THREADS": true, "CARGO_TERM_COLOR": true,
	"PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true, "PYTHONHASHSEED": true, "PYTHONWARNINGS": true,
	"PYTEST_ADDOPTS": false, "JEST_WORKER_ID": true, "TESTING": true, "TEST": true, "ENV": false,
}

// bashSettings are variables bash itself reads to decide what to run:
// setting one hides code from any reading of the command.
var bashSettings = map[string]bool{"PATH": true, "IFS": true, "BASH_ENV": true, "ENV": true, "PS4": true,
	"PROMPT_COMMAND": true, "SHELLOPTS": true, "BASHOPTS": true, "CDPATH": true, "GLOBIGNORE": true, "HOME": true,
	"FUNCNEST": true, "BASH_XTRACEFD": true, "EXECIGNORE": true, "BASH_COMPAT": true, "POSIXLY_CORRECT": true}

// lowerName reports whether name matches ^[a-z_][a-z0-9_]*$, without a
// regexp compiled at every keel start.
func lowerName(name string) bool {
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return name != ""
}

// safeShellVar reports a variable a script may set for itself (x=1 with
// no command): a lower-case name is no setting of bash's or of the
// programs it runs (npm_config_* and *_proxy excepted), and an upper-case
// one must be a safe environment name, since it may already be exported.
func safeShellVar(name string) bool {
	if lowerName(name) {
		return !strings.HasPrefix(name, "npm_config_") && !strings.HasSuffix(name, "_proxy")
	}
	return safeEnvNames[name]
}

// countAssignments counts, per variable, the places the script assigns
// it: a loop variable assigned nowhere else takes only its items.
func (a *analyser) countAssignments(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil {
				a.set[x.Name.Value]++
			} else if x.Value != nil {
				a.set[x.Value.Lit()]++ // declare x
			}
		case *syntax.WordIter:
			a.set[x.Name.Value]++
		case *syntax.CallExpr:
			if len(x.Args) > 0 && assigningBuiltins[x.Args[0].Lit()] { // read x, printf -v x, …: every word may be a name
				for _, w := range x.Args[1:] {
					a.set[w.Lit()] += 2
				}
			}
		}
		return true
	})
}

// assigningBuiltins set variables named by their arguments.
var assigningBuiltins = map[string]bool{"read": true, "mapfile": true, "readarray": true, "getopts": true,
	"printf": true, "unset": true, "export": true, "declare": true, "typeset": true, "local": true, "readonly": true}

// assigns checks assignments: their values are words like any other, the
// names must be safe to set, and array indices are arithmetic.
func (a *analyser) assigns(list []*syntax.Assign, prefix bool) []Assign {
	var out []Assign
	for _, as := range list {
		if as.Name == nil {
			continue
		}
		name := as.Name.Value
		switch {
		case as.Index != nil:
			a.problem("an array index is arithmetic, which can run commands hidden in variables", as)
		case as.Array != nil:
			for _, el := range as.Array.Elems {
				if el.Index != nil {
					a.problem("an array index is arithmetic, which can run commands hidden in variables", as)
				}
				if el.Value != nil {
					a.words(el.Value)
				}
			}
		}
		var v Word
		if as.Value != nil {
			v = a.word(as.Value)
		}
		switch {
		case bashSettings[name]:
			a.problem("sets "+name+", which changes what bash runs", as)
		case prefix && !safeEnvNames[name]:
			a.seen("sets "+name+", which a program may read as a command or option", as)
		case !prefix && !safeShellVar(name):
			a.seen("sets "+name+", which changes how the programs bash runs behave", as)
		}
		out = append(out, Assign{Name: name, Value: v})
	}
	return out
}

// declClause checks export, declare, local, readonly and typeset: plain
// flags only (no -n name references, no -i arithmetic), and exported
// names must be safe environment names.
func (a *analyser) declClause(d *syntax.DeclClause) {
	export := d.Variant.Value == "export"
	for _, as := range d.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			w := a.word(as.Value)
			switch {
			case !w.Known():
				a.problem(d.Variant.Value+" with an argument keel cannot check", as)
			case strings.HasPrefix(w.Value, "-") || strings.HasPrefix(w.Value, "+"):
				if strings.Trim(w.Value[1:], "aAgrlux") != "" {
					a.problem(d.Variant.Value+" "+w.Value+" changes how variables are evaluated", as)
				}
				export = export || strings.Contains(w.Value, "x")
			case !safeShellVar(w.Value) && !safeEnvNames[w.Value]:
				a.problem(d.Variant.Value+" "+w.Value+" changes a setting programs read", as)
			}
			continue
		}
		a.assigns([]*syntax.Assign{as}, export)
	}
}
