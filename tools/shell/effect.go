package shell

import "strings"

// Effect is what keel knows of one call.
type Effect struct {
	// ReadOnly: the call only reads files and prints; it runs without a rule.
	ReadOnly bool
	// Reads are path operands it reads, checked against the workspace.
	Reads []Word
	// Writes are files it writes as its job (tee FILE, cp … DEST, sed -i
	// FILE, rm FILE): a rule for the command covers them, but a write into
	// .git, keel's own files or outside the workspace is judged as a write.
	Writes []Word
	// FlagWrites are files an option makes it write (-o FILE, --output,
	// -coverprofile): a rule for the command does not cover them.
	FlagWrites []Word
	// Destructive says why it throws work away ("" when it does not).
	Destructive string
	// Blocker says why no allow rule or session grant can cover it (an
	// option that runs another program, git -c, arguments from xargs).
	Blocker string
	// Canonical is the command as rules match it: the program's base name,
	// git's global options taken off.
	Canonical []string
	// GitDir is git -C's directory ("" when none).
	GitDir string
}

// Classify says what a call does, from its program and arguments.
func Classify(c *Call) Effect {
	e := Effect{Canonical: c.Values()}
	prog := c.Program()
	if prog == "" {
		e.Blocker = "the program to run is not known before it runs"
		return e
	}
	args := c.Args[1:]
	if strings.Contains(c.Args[0].Value, "/") && !standardPath(c.Args[0].Value) {
		prog = "" // ./ls or /tmp/x/ls is some other program, not ls
		e.Canonical[0] = c.Args[0].Value
	}
	if versionQueries[prog] && len(args) == 1 && (args[0].Value == "--version" || args[0].Value == "--help") {
		e.ReadOnly = true
		return e
	}
	switch prog {
	case "git":
		classifyGit(c, args, &e)
	case "go":
		classifyGo(args, &e)
	case "make", "gmake":
		classifyMake(args, &e)
	case "npm", "pnpm", "yarn", "bun", "npx":
		classifyNode(prog, args, &e)
	case "cargo":
		classifyCargo(args, &e)
	case "find":
		findEffect(args, &e)
	case "jq":
		classifyJq(args, &e)
	default:
		if spec, ok := readOnly[prog]; ok {
			spec.apply(args, &e)
		}
		writes(prog, args, &e)
	}
	destructive(c, prog, args, &e)
	if c.MoreArgs && !e.ReadOnly {
		e.Blocker = firstNonEmpty(e.Blocker, "it gets more arguments from xargs or find when it runs, which keel cannot see")
	}
	return e
}

// standardPath is a program path in the system's own directories: /bin/rm
// is rm.
func standardPath(p string) bool {
	for _, dir := range []string{"/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/"} {
		if strings.HasPrefix(p, dir) && !strings.Contains(p[len(dir):], "/") {
			return true
		}
	}
	return false
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
