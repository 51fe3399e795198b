package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// optSpec describes a wrapper's options: the short and long ones that
// take a value. Any other option starting with - is a flag; an option not
// listed in flags either is unknown, and the wrapper a problem.
type optSpec struct {
	valued string   // short options with a value, e.g. "kns"
	long   []string // long options with a value, without "--"
	flags  string   // short flags
	lflags []string // long flags
}

// wrapper takes a call apart: the inner call (nil when it runs nothing
// else) or a problem.
type wrapper func(a *analyser, c *Call, rest []Word) (*Call, string)

var wrappers map[string]wrapper

func init() {
	wrappers = map[string]wrapper{
		"env":     unwrapEnv,
		"timeout": simpleWrapper(optSpec{valued: "ks", long: []string{"kill-after", "signal"}, flags: "v", lflags: []string{"foreground", "preserve-status", "verbose"}}, 1),
		"nice":    simpleWrapper(optSpec{valued: "n", long: []string{"adjustment"}}, 0),
		"nohup":   simpleWrapper(optSpec{}, 0),
		"stdbuf":  simpleWrapper(optSpec{valued: "ioe", long: []string{"input", "output", "error"}}, 0),
		"ionice":  simpleWrapper(optSpec{valued: "cnp", long: []string{"class", "classdata", "pid"}, flags: "t"}, 0),
		"command": unwrapCommand,
		"builtin": simpleWrapper(optSpec{}, 0),
		"time":    simpleWrapper(optSpec{flags: "pv", lflags: []string{"portability", "verbose"}}, 0),
		"xargs":   unwrapXargs,
		"sudo": simpleWrapper(optSpec{valued: "ugCDhprtUT", long: []string{"user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "other-user", "command-timeout"},
			flags: "AbEHknPS", lflags: []string{"askpass", "background", "preserve-env", "set-home", "non-interactive", "preserve-groups", "stdin"}}, 0),
		"doas": simpleWrapper(optSpec{valued: "uC", flags: "ns"}, 0),
	}
}

// simpleWrapper skips the options in spec and then skip more words (the
// duration of timeout); the rest is the inner command.
func simpleWrapper(spec optSpec, skip int) wrapper {
	return func(a *analyser, c *Call, rest []Word) (*Call, string) {
		i, why := spec.skip(rest)
		if why != "" {
			return nil, why
		}
		i += skip
		if i >= len(rest) {
			return nil, ""
		}
		return inner(c, rest[i:]), ""
	}
}

// skip returns the index of the first operand after the options.
func (s optSpec) skip(args []Word) (int, string) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.Known() {
			return 0, "with an argument keel cannot check"
		}
		v := w.Value
		switch {
		case v == "--":
			return i + 1, ""
		case !strings.HasPrefix(v, "-") || v == "-":
			return i, ""
		case strings.HasPrefix(v, "--"):
			name, _, hasValue := strings.Cut(v[2:], "=")
			switch {
			case slices.Contains(s.long, name):
				if !hasValue {
					i++
				}
			case !slices.Contains(s.lflags, name):
				return 0, "with the option " + v
			}
		default:
			n, why := s.shortCluster(v[1:])
			if why != "" {
				return 0, why
			}
			i += n
		}
	}
	return len(args), ""
}

// shortCluster reads -abc or -n5; it returns 1 when the value is the next
// word.
func (s optSpec) shortCluster(cluster string) (int, string) {
	if s.valued == "n" && strings.Trim(cluster, "0123456789") == "" {
		return 0, "" // nice -10
	}
	for j := 0; j < len(cluster); j++ {
		switch ch := cluster[j]; {
		case strings.IndexByte(s.valued, ch) >= 0:
			if j == len(cluster)-1 {
				return 1, ""
			}
			return 0, ""
		case strings.IndexByte(s.flags, ch) < 0:
			return 0, "with the option -" + string(ch)
		}
	}
	return 0, ""
}

// inner is the call a wrapper runs.
func inner(c *Call, args []Word) *Call {
	return &Call{Args: args, Env: slices.Clone(c.Env), Dirs: slices.Clone(c.Dirs), Via: append(slices.Clone(c.Via), c.Program()),
		MoreArgs: c.MoreArgs, Nested: c.Nested, Text: c.Text}
}

// unwrap takes a wrapper off c; nil means c runs nothing else (or a
// problem was recorded).
func (a *analyser) unwrap(c *Call, prog string) *Call {
	in, why := wrappers[prog](a, c, c.Args[1:])
	if why != "" {
		a.opaque(prog+" "+why, c)
		return nil
	}
	return in
}

// unwrapEnv handles env [-i] [-u NAME] [-C DIR] [NAME=VALUE…] CMD; -S
// splits a string into a command keel would have to re-read.
func unwrapEnv(a *analyser, c *Call, rest []Word) (*Call, string) {
	dirs := slices.Clone(c.Dirs)
	var env []Assign
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		v := w.Value
		switch {
		case !w.Known():
			return nil, "with an argument keel cannot check"
		case v == "-S" || strings.HasPrefix(v, "-S") || strings.HasPrefix(v, "--split-string") || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "S"):
			return nil, "-S splits a string into a command keel would have to re-read"
		case v == "-C" || v == "--chdir" || strings.HasPrefix(v, "--chdir="):
			d := strings.TrimPrefix(v, "--chdir=")
			if !strings.HasPrefix(v, "--chdir=") {
				if i+1 >= len(rest) || !rest[i+1].Known() {
					return nil, "-C with a directory keel cannot check"
				}
				d, i = rest[i+1].Value, i+1
			}
			for j := range dirs {
				dirs[j] = joinDir(dirs[j], d)
			}
		case v == "-u" || v == "--unset":
			i++
		case strings.HasPrefix(v, "--unset=") || strings.HasPrefix(v, "-u"),
			v == "-" || v == "--" || v == "--ignore-environment" || v == "--null" || v == "--debug",
			strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Trim(v[1:], "i0v") == "":
		case strings.HasPrefix(v, "-"):
			return nil, "with the option " + v
		case isAssignment(v):
			name, value, _ := strings.Cut(v, "=")
			if !safeEnvNames[name] {
				return nil, "sets " + name + ", which a program may read as a command or option"
			}
			env = append(env, Assign{Name: name, Value: Word{Value: value}})
		default:
			in := inner(c, rest[i:])
			in.Env, in.Dirs = append(in.Env, env...), dirs
			return in, ""
		}
	}
	return nil, ""
}

func isAssignment(v string) bool {
	name, _, ok := strings.Cut(v, "=")
	return ok && name != "" && strings.Trim(strings.ToUpper(name), "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == "" && (name[0] < '0' || name[0] > '9')
}

// unwrapCommand: command CMD runs CMD; command -v/-V only looks it up.
func unwrapCommand(a *analyser, c *Call, rest []Word) (*Call, string) {
	i := 0
	for i < len(rest) && rest[i].Known() && strings.HasPrefix(rest[i].Value, "-") {
		if strings.ContainsAny(rest[i].Value, "vV") {
			return nil, ""
		}
		i++
	}
	if i >= len(rest) {
		return nil, ""
	}
	return inner(c, rest[i:]), ""
}

// unwrapXargs: xargs [options] CMD runs CMD with arguments read from its
// input, so CMD gets arguments keel cannot see.
func unwrapXargs(a *analyser, c *Call, rest []Word) (*Call, string) {
	spec := optSpec{valued: "IndPLlsaEe", long: []string{"replace", "max-args", "max-procs", "delimiter", "max-lines", "max-chars", "arg-file", "eof"},
		flags: "0rtpxo", lflags: []string{"null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty", "show-limits"}}
	i, why := spec.skip(rest)
	if why != "" {
		return nil, why
	}
	args := []Word{{Value: "echo"}}
	if i < len(rest) {
		args = rest[i:]
	}
	in := inner(c, args)
	in.MoreArgs = true
	return in, ""
}

// codeBuiltin analyses the code eval, exec and trap run: eval's words
// joined into a script, exec's words as a command, trap's string as a
// script. It reports whether keel saw all of it.
func (a *analyser) codeBuiltin(c *Call, prog string) bool {
	args := c.Args[1:]
	switch prog {
	case "source", ".":
		return len(args) > 0 && args[0].Known() // a script file, like bash script.sh
	case "exec":
		if len(args) == 0 {
			return true // exec >file: the redirection is a write like any other
		}
		if args[0].MayBeOption() {
			return false
		}
		a.run(inner(c, args))
		return true
	case "trap":
		if len(args) == 0 || args[0].Value == "-p" || args[0].Value == "-l" {
			return true
		}
		args = args[:1] // the handler; the rest are signal names
	case "eval":
	default:
		return false
	}
	var parts []string
	for _, w := range args {
		if !w.Known() {
			return false
		}
		parts = append(parts, w.Value)
	}
	return a.nestedScript(strings.Join(parts, " "), prog, syntax.LangBash, c)
}

// nestedScript analyses a script a call runs (bash -c SCRIPT, eval); it
// reports whether it could.
func (a *analyser) nestedScript(src, via string, lang syntax.LangVariant, c *Call) bool {
	if a.depth >= maxDepth {
		a.opaque("scripts nested too deep to check", c)
		return false
	}
	f, err := parse(src, lang)
	if err != nil {
		a.opaque(via+" runs a script keel cannot read: "+err.Error(), c)
		return false
	}
	ch := a.child(src, via)
	ch.dirs, ch.via, ch.nested = slices.Clone(c.Dirs), append(slices.Clone(c.Via), via), c.Nested
	ch.file(f)
	return true
}
