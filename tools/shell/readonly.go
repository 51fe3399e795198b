package shell

import "strings"

// roSpec says when a program only reads files and prints.
type roSpec struct {
	opts    opts
	anyArgs bool     // no option writes or runs anything: arguments keel cannot see are harmless
	exec    []string // options that run another program: no rule covers the call
	write   []string // options whose value is a file it writes
	notRO   []string // other options that make it more than a read
	reads   []string // options whose value is a file it reads
	paths   func(p parsed) []Word
	noPaths bool // its operands are not files it reads
	check   func(args []Word, p parsed) bool
	// blocks: when check fails, why no rule may cover the call either
	// (test -v 'a[$(cmd)]' runs cmd, whatever "test *" meant to allow).
	blocks string
}

// apply fills e for a call of a program with this spec.
func (s roSpec) apply(args []Word, e *Effect) {
	p := s.opts.parse(args)
	if s.exec != nil && p.has(s.exec...) {
		e.Blocker = "an option makes it run another program"
		return
	}
	if p.unsure && !s.anyArgs {
		e.Blocker = "an argument keel cannot see may be an option that writes files or runs programs"
		return
	}
	e.FlagWrites = append(e.FlagWrites, p.value(s.write...)...)
	if s.check != nil && !s.check(args, p) {
		e.Blocker = s.blocks
		return
	}
	if s.notRO != nil && p.has(s.notRO...) {
		return
	}
	e.ReadOnly = true
	e.Reads = append(e.Reads, p.value(s.reads...)...)
	switch {
	case s.noPaths:
	case s.paths != nil:
		e.Reads = append(e.Reads, s.paths(p)...)
	default:
		e.Reads = append(e.Reads, p.operands...)
	}
}

// patternFirst: the first operand is a pattern unless -e or -f gave one.
func patternFirst(p parsed) []Word {
	if p.has("-e", "-f", "--regexp", "--file") || len(p.operands) == 0 {
		return p.operands
	}
	return p.operands[1:]
}

// atMostOne: a second operand would be a file it writes (uniq IN OUT).
func atMostOne(_ []Word, p parsed) bool { return len(p.operands) <= 1 }

var (
	harmless = roSpec{anyArgs: true, noPaths: true}
	plain    = roSpec{anyArgs: true}
)

// readOnly lists the programs that only read, and under which options.
var readOnly = map[string]roSpec{
	"ls": {anyArgs: true, opts: opts{short: "ITw", long: []string{"ignore", "hide", "tabsize", "width", "block-size", "format",
		"sort", "time", "time-style", "quoting-style", "indicator-style"}}},
	"cat": plain, "tac": plain, "rev": plain, "nl": plain, "cmp": plain, "comm": plain, "paste": plain,
	"md5sum": plain, "sha1sum": plain, "sha256sum": plain, "sha512sum": plain, "b2sum": plain, "cksum": plain,
	"strings": plain, "od": plain, "hexdump": plain, "df": plain, "fold": plain, "fmt": plain, "expand": plain, "unexpand": plain,
	"join": plain, "column": plain,
	"head": {anyArgs: true, opts: opts{short: "nc", long: []string{"lines", "bytes"}}},
	"tail": {anyArgs: true, opts: opts{short: "ncs", long: []string{"lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"}}},
	"wc":   {anyArgs: true, opts: opts{long: []string{"files0-from"}}, reads: []string{"--files0-from"}},
	"cut":  {anyArgs: true, opts: opts{short: "bcdf", long: []string{"bytes", "characters", "delimiter", "fields", "output-delimiter"}}},
	"stat": {anyArgs: true, opts: opts{short: "c", long: []string{"format", "printf"}}},
	"du":   {anyArgs: true, opts: opts{short: "BdtX", long: []string{"block-size", "max-depth", "threshold", "exclude", "exclude-from", "files0-from", "time-style"}}, reads: []string{"-X", "--exclude-from", "--files0-from"}},
	"diff": {anyArgs: true, opts: opts{short: "ILFSxXD", long: []string{"ignore-matching-lines", "label", "show-function-line", "starting-file", "exclude", "exclude-from", "ifdef", "to-file", "from-file", "line-format", "tabsize", "width"}}, reads: []string{"-X", "--exclude-from", "--to-file", "--from-file"}},
	"grep": grepSpec, "egrep": grepSpec, "fgrep": grepSpec,
	"rg":   rgSpec,
	"sort": {opts: opts{short: "kStTo", long: []string{"key", "field-separator", "buffer-size", "temporary-directory", "output", "files0-from", "compress-program", "batch-size", "parallel", "random-source"}}, exec: []string{"--compress-program"}, write: []string{"-o", "--output"}, notRO: []string{"-o", "--output"}, reads: []string{"--files0-from", "--random-source"}},
	// uniq's --group and --all-repeated take a value only attached (=METHOD):
	// listed as valued, they hid the output operand (uniq --group IN OUT).
	"uniq": {opts: opts{short: "fsw", long: []string{"skip-fields", "skip-chars", "check-chars"}}, check: atMostOne},
	// xxd's -C is a flag (capitalize); -r writes binary to its output operand.
	// Its options end at the first operand (xxd IN -c writes a file named
	// -c), and each is a word of its own, named by its first letter (-ps
	// is -p, -cols takes the next word, -c8 does not): keel takes none as
	// valued, so a value counts as an operand and xxd -c 8 IN asks.
	"xxd": {opts: opts{posix: true}, check: atMostOne, notRO: []string{"-r"}},
	// -o/--output and -i/--input are macOS base64's output and input files.
	"base64": {anyArgs: true, opts: opts{short: "wio", long: []string{"wrap", "input", "output"}}, check: atMostOne, write: []string{"-o", "--output"}, notRO: []string{"-o", "--output"}, reads: []string{"-i", "--input"}},
	"file":   {anyArgs: true, opts: opts{short: "mfFeP", long: []string{"magic-file", "files-from", "separator", "exclude", "parameter"}}, notRO: []string{"-C", "--compile"}, reads: []string{"-m", "--magic-file", "-f", "--files-from"}},
	"tree":   {opts: opts{short: "LPIoHT", long: []string{"charset", "filelimit", "timefmt", "sort", "gitfile", "infofile"}}, write: []string{"-o"}, notRO: []string{"-o"}},
	"date":   {anyArgs: true, noPaths: true, opts: opts{short: "dfrsI", long: []string{"date", "file", "reference", "set", "resolution"}}, notRO: []string{"-s", "--set"}, reads: []string{"-f", "--file", "-r", "--reference"}},
	"hostname": {noPaths: true, check: func(args []Word, p parsed) bool {
		return len(p.operands) == 0 && !p.has("-F", "--file", "-b", "--boot")
	}},
	"test": testSpec, "[": testSpec,
	"sed":  {opts: opts{short: "efl", long: []string{"expression", "file", "line-length"}}, check: sedReadOnly, paths: sedFiles, notRO: []string{"-i", "--in-place", "-f", "--file"}},
	"git":  {}, // classifyGit
	"echo": harmless, "printf": harmless, "true": harmless, "false": harmless, ":": harmless, "pwd": harmless,
	"cd": harmless, "pushd": harmless, "popd": harmless, "dirs": harmless, "exit": harmless, "return": harmless,
	"break": harmless, "continue": harmless, "shift": harmless, "wait": harmless, "read": harmless, "sleep": harmless,
	"seq": harmless, "expr": harmless, "whoami": harmless, "id": harmless, "groups": harmless, "uname": harmless,
	"arch": harmless, "nproc": harmless, "tty": harmless, "locale": harmless, "uptime": harmless, "free": harmless,
	"ps": harmless, "basename": harmless, "dirname": harmless, "realpath": harmless, "readlink": harmless,
	"which": harmless, "type": harmless, "command": harmless, "env": harmless, "printenv": harmless, "tr": harmless,
	"logname": harmless, "getconf": harmless, "mapfile": harmless, "readarray": harmless, "getopts": harmless, "numfmt": harmless, "set": harmless, "unset": harmless, "umask": harmless,
}

var testSpec = roSpec{anyArgs: true, noPaths: true, check: plainTest,
	blocks: "test -v with a variable or an array subscript evaluates arithmetic, which can run commands"}

var grepSpec = roSpec{anyArgs: true,
	opts: opts{short: "efmABCDd", long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context",
		"directories", "devices", "include", "exclude", "exclude-from", "exclude-dir", "label", "binary-files", "group-separator"}},
	reads: []string{"-f", "--file", "--exclude-from"}, paths: patternFirst}

var rgSpec = roSpec{
	opts: opts{short: "ABCeEfgjmMrtTd", long: []string{"after-context", "before-context", "context", "context-separator", "colors", "color",
		"dfa-size-limit", "encoding", "engine", "field-context-separator", "field-match-separator", "file", "glob", "iglob", "ignore-file",
		"max-columns", "max-count", "max-depth", "max-filesize", "path-separator", "pre", "pre-glob", "regex-size-limit", "regexp",
		"replace", "sort", "sortr", "threads", "type", "type-add", "type-clear", "type-not", "hyperlink-format", "hostname-bin", "generate"}},
	exec:  []string{"--pre", "--hostname-bin", "-z", "--search-zip"},
	reads: []string{"-f", "--file", "--ignore-file"}, paths: patternFirst}

// plainTest: test -v NAME[SUB] evaluates the subscript as arithmetic.
func plainTest(args []Word, _ parsed) bool {
	for i, w := range args {
		if (w.Value == "-v" || w.Value == "-R") && i+1 < len(args) && (!args[i+1].Known() || strings.Contains(args[i+1].Value, "[")) {
			return false
		}
	}
	return true
}

// versionQueries are programs for which --version and --help only print.
var versionQueries = map[string]bool{"go": true, "node": true, "npm": true, "pnpm": true, "yarn": true, "bun": true, "deno": true,
	"python": true, "python3": true, "pip": true, "pip3": true, "cargo": true, "rustc": true, "rustup": true, "java": true,
	"javac": true, "gcc": true, "g++": true, "clang": true, "make": true, "cmake": true, "git": true, "ruby": true, "perl": true,
	"rg": true, "jq": true, "bash": true, "tmux": true, "sqlite3": true, "docker": true, "kubectl": true, "terraform": true,
	"mvn": true, "gradle": true, "dotnet": true, "swift": true, "php": true, "lua": true, "gofmt": true, "uv": true, "poetry": true}
