package shell

import "strings"

// Builtins that assign variables change the shell's environment as much
// as NAME=value does: read PATH sets PATH (the repository's ./bin/ls then
// runs), read HOME makes git read the repository's .gitconfig, printf -v
// PS4 hides a substitution that set -x runs, and a name with a subscript
// (read 'a[$(cmd)]') runs cmd while assigning. Each name such a builtin
// assigns must be a plain, harmless one (safeShellVar); anything else is
// a problem, and the command asks.

// assigners are the builtins that assign the variables their arguments
// name, with how to find those names.
var assigners = map[string]func(args []Word) (names []Word, why string){
	"read":      readNames,
	"mapfile":   mapfileNames,
	"readarray": mapfileNames,
	"getopts":   getoptsNames,
	"printf":    valueNames(opts{short: "v"}, "-v"),
	"wait":      valueNames(opts{short: "p"}, "-p"),
	"unset":     unsetNames,
	"declare":   declNames, "typeset": declNames, "local": declNames, "export": declNames, "readonly": declNames,
	"let": func([]Word) ([]Word, string) {
		return nil, "let evaluates arithmetic, which can run commands hidden in variables"
	},
}

// assigningCall checks the names a call of an assigning builtin sets.
func (a *analyser) assigningCall(c *Call, prog string) {
	names, why := assigners[prog](c.Args[1:])
	if why != "" {
		a.opaque(why, c)
		return
	}
	for _, n := range names {
		switch v := n.Value; {
		case !n.Known() || !identifier(v):
			a.opaque(prog+" assigns a variable keel cannot name (a subscript is arithmetic, which can run commands)", c)
			return
		case bashSettings[v]:
			a.opaque(prog+" sets "+v+", which changes what bash runs", c)
			return
		case !safeShellVar(v):
			a.script.Problems = append(a.script.Problems, Problem{What: prog + " sets " + v + ", which a program may read as a command or option", Text: c.Text})
			return
		}
	}
}

// identifier reports a plain variable name: [A-Za-z_][A-Za-z0-9_]*.
func identifier(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// valueNames: the names are the values of the given option (printf -v,
// wait -p); the other arguments are data.
func valueNames(o opts, option string) func([]Word) ([]Word, string) {
	return func(args []Word) ([]Word, string) {
		p := o.parse(args)
		if p.unsure && !p.has(option) {
			return nil, "an argument keel cannot see may be " + option + ", which assigns a variable"
		}
		return p.value(option), ""
	}
}

// readNames: read [-ers] [-a ARRAY] [-d D] [-i T] [-n N] [-N N] [-p P]
// [-t T] [-u FD] [NAME…]; without a name it sets REPLY.
func readNames(args []Word) ([]Word, string) {
	p := opts{short: "adinNptu"}.parse(args)
	if p.unsure {
		return nil, "read gets an argument keel cannot see, which may name a variable"
	}
	return append(p.value("-a"), p.operands...), ""
}

// mapfileNames: mapfile [-t] [-d D] [-n N] [-O ORIGIN] [-s N] [-u FD]
// [-C CALLBACK [-c N]] [ARRAY]; -C runs code for every line.
func mapfileNames(args []Word) ([]Word, string) {
	p := opts{short: "dnOsuCc"}.parse(args)
	switch {
	case p.has("-C"):
		return nil, "mapfile -C runs a command for the lines it reads"
	case p.unsure:
		return nil, "mapfile gets an argument keel cannot see, which may name a variable"
	}
	for _, o := range []string{"-n", "-O", "-s", "-u", "-c"} {
		for _, v := range p.value(o) {
			if !v.Known() || strings.Trim(v.Value, "0123456789") != "" {
				return nil, "mapfile " + o + " with a value that is not a number"
			}
		}
	}
	return p.operands, ""
}

// getoptsNames: getopts OPTSTRING NAME [ARG…].
func getoptsNames(args []Word) ([]Word, string) {
	if len(args) < 2 {
		return nil, ""
	}
	return args[1:2], ""
}

// unsetNames: unset [-f|-v|-n] NAME…; unsetting a function changes only
// which command a name runs, which keel reads as a problem anyway.
func unsetNames(args []Word) ([]Word, string) {
	var names []Word
	for i, w := range args {
		switch {
		case !w.Known():
			return nil, "unset with an argument keel cannot see"
		case w.Value == "--":
			return append(names, args[i+1:]...), ""
		case strings.HasPrefix(w.Value, "-") && strings.Trim(w.Value[1:], "fvn") == "" && len(w.Value) > 1:
		default:
			names = append(names, w)
		}
	}
	return names, ""
}

// declNames: declare and friends reached as a command (through builtin or
// command), which the parser does not read as declarations.
func declNames(args []Word) ([]Word, string) {
	var names []Word
	for _, w := range args {
		v := w.Value
		switch {
		case !w.Known():
			return nil, "a declaration with an argument keel cannot see"
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
			if strings.Trim(v[1:], "aAgrlux") != "" {
				return nil, "a declaration option that changes how variables are evaluated: " + v
			}
		default:
			name, _, _ := strings.Cut(v, "=")
			names = append(names, Word{Value: name})
		}
	}
	return names, ""
}
