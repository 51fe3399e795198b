package shell

import "strings"

// goExec are flags that make the go command run another program.
var goExec = map[string]bool{"exec": true, "toolexec": true, "vettool": true, "overlay": false}

// goReads are flags whose value is a file or directory the go command
// reads (or runs in, -C): checked against the workspace like any read.
var goReads = map[string]bool{"C": true, "modfile": true, "overlay": true, "pgo": true}

// goPathOperand returns the directory or file an operand of the go
// command names when it is a path (/x, ./x, ../x, ~/x, which bash turns
// into $HOME/x, and x/... under them) rather than an import path, whose
// packages come from the module cache or GOROOT.
func goPathOperand(v string) (string, bool) {
	local := v == "." || v == ".." || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../")
	home := v == "~" || strings.HasPrefix(v, "~/")
	if !local && !home && !strings.HasPrefix(v, "/") {
		return "", false
	}
	v = strings.TrimSuffix(v, "/...")
	if v == "" {
		v = "/"
	}
	return v, true
}

// goWrites are flags whose value is a file the go command writes.
var goWrites = map[string]bool{"o": true, "coverprofile": true, "cpuprofile": true, "memprofile": true, "blockprofile": true,
	"mutexprofile": true, "trace": true, "outputdir": true, "pkgdir": true}

// classifyGo: go version, env, list and doc only read; -exec, -toolexec
// and -vettool run other programs; -o, -c and the profile flags write
// files. Flags given to the test binary (-test.x, after -args) count too.
func classifyGo(args []Word, e *Effect) {
	sub := ""
	if len(args) > 0 {
		sub = args[0].Value
	}
	for i := 1; i < len(args); i++ {
		w := args[i]
		if !w.Known() && w.MayBeOption() {
			e.Blocker = "go gets an argument keel cannot see, which may be -exec or -toolexec"
			return
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(w.Value, "-"), "=")
		if !strings.HasPrefix(w.Value, "-") {
			if path, ok := goPathOperand(w.Value); ok {
				e.Reads = append(e.Reads, Word{Value: path})
			}
			continue
		}
		name = strings.TrimPrefix(name, "test.")
		if goReads[name] {
			if !hasValue && i+1 < len(args) {
				value, i = args[i+1].Value, i+1
			}
			if value != "auto" && value != "off" && value != "" { // -pgo's settings that name no file
				e.Reads = append(e.Reads, Word{Value: value})
			}
		}
		if goExec[name] {
			e.Blocker = "go -" + name + " runs another program"
			return
		}
		if goWrites[name] {
			if !hasValue && i+1 < len(args) {
				value, i = args[i+1].Value, i+1
			}
			e.FlagWrites = append(e.FlagWrites, Word{Value: value})
		}
		if name == "c" && sub == "test" {
			e.FlagWrites = append(e.FlagWrites, Word{Value: "*.test", Glob: true})
		}
		if (name == "w" || name == "u") && sub == "env" {
			e.Blocker = "go env -w changes Go's settings for every project"
			return
		}
	}
	switch sub {
	case "version", "env", "list", "doc", "help":
		e.ReadOnly = len(e.FlagWrites) == 0 && !(sub == "list" && hasAnyFlag(args, "export", "compiled", "toolexec"))
	}
}

func hasAnyFlag(args []Word, names ...string) bool {
	for _, w := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(w.Value, "-"), "=")
		for _, n := range names {
			if strings.HasPrefix(w.Value, "-") && name == n {
				return true
			}
		}
	}
	return false
}

// makeSafeVars are variables make may be given on its command line
// without changing which programs it runs (SHELL=, CC=, MAKE= would).
var makeSafeVars = map[string]bool{"V": true, "VERBOSE": true, "DEBUG": true, "CI": true, "TEST": true, "TESTS": true,
	"RUN": true, "PKG": true, "PKGS": true, "ARGS": true, "TESTARGS": true, "COUNT": true, "TAGS": true, "Q": true}

// classifyMake: command-line variables override the makefile's (SHELL=,
// CC=); -f, -C and --eval run a makefile or rules keel did not see.
func classifyMake(args []Word, e *Effect) {
	for _, w := range args {
		if why := makeArg(w); why != "" {
			e.Blocker = why
			return
		}
	}
}

func makeArg(w Word) string {
	v := w.Value
	switch {
	case !w.Known():
		return "make gets an argument keel cannot see"
	case isAssignment(v):
		name, _, _ := strings.Cut(v, "=")
		if !makeSafeVars[name] && !safeEnvNames[name] {
			return "make " + name + "=… overrides the makefile and may change the programs it runs"
		}
	case strings.HasPrefix(v, "--"):
		name, _, _ := strings.Cut(v, "=")
		for _, o := range []string{"--file", "--makefile", "--directory", "--eval"} {
			if name == o || isAbbrev(name, o) {
				return "make " + name + " runs a makefile or rules keel did not see"
			}
		}
	case strings.HasPrefix(v, "-"):
		for _, c := range v[1:] {
			if strings.ContainsRune("fCE", c) {
				return "make -" + string(c) + " runs a makefile or rules keel did not see"
			}
			if strings.ContainsRune("IjloWO", c) {
				break // the rest is this option's value
			}
		}
	}
	return ""
}

// classifyNode: npm and friends take --script-shell and --node-options,
// which choose the programs their scripts run with; npx and npm exec run
// any package.
func classifyNode(prog string, args []Word, e *Effect) {
	for _, w := range args {
		v := w.Value
		switch {
		case !w.Known() && w.MayBeOption():
			e.Blocker = prog + " gets an argument keel cannot see, which may be an option that runs programs"
		case strings.HasPrefix(v, "--script-shell") || strings.HasPrefix(v, "--node-options") || strings.HasPrefix(v, "--shell") ||
			v == "-c" || strings.HasPrefix(v, "--call") || strings.HasPrefix(v, "--userconfig") || strings.HasPrefix(v, "--globalconfig"):
			e.Blocker = prog + " " + strings.SplitN(v, "=", 2)[0] + " chooses the program its scripts run with"
		}
		if e.Blocker != "" {
			return
		}
	}
}

// classifyCargo: --config can set a runner or linker, and -Z options
// change how cargo builds; --target-dir writes elsewhere.
func classifyCargo(args []Word, e *Effect) {
	for i, w := range args {
		v := w.Value
		switch {
		case !w.Known() && w.MayBeOption():
			e.Blocker = "cargo gets an argument keel cannot see"
		case v == "--config" || strings.HasPrefix(v, "--config=") || v == "-Z" || strings.HasPrefix(v, "-Z"):
			e.Blocker = "cargo " + strings.SplitN(v, "=", 2)[0] + " can set the programs cargo runs"
		case v == "--target-dir" && i+1 < len(args):
			e.FlagWrites = append(e.FlagWrites, args[i+1])
		case strings.HasPrefix(v, "--target-dir="):
			e.FlagWrites = append(e.FlagWrites, Word{Value: strings.TrimPrefix(v, "--target-dir=")})
		}
		if e.Blocker != "" {
			return
		}
	}
}
