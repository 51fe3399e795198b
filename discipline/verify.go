package discipline

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// KindVerify is the verify guard's reminder.
const KindVerify Kind = "verify"

var (
	verifyOn           = boolSetting("verify", true, "remind the model when it ends its turn with unverified edits")
	verifyPatterns     = listSetting("verify_patterns", defaultVerifyPatterns, "commands that count as verifying an edit (keel's list; prefer verify_patterns_extra)")
	verifyExtra        = listSetting("verify_patterns_extra", nil, "more commands that count as verifying an edit, added to verify_patterns")
	verifySkipSuffixes = listSetting("verify_skip_suffixes", defaultVerifySkipSuffixes, "file suffixes whose edits need no check (prose)")
)

var verifyGuard = &Guard{
	Name: "verify", Kind: KindVerify, Rank: 4,
	Settings: []*Setting{verifyOn, verifyPatterns, verifyExtra, verifySkipSuffixes},
	Call: func(s *State, c ToolCall, _ int, p *Policy) *Intervention {
		stateOf[unverified](s, "verify").observe(c, p)
		return nil
	},
	Round: verify,
}

// defaultVerifyPatterns are the commands that count as verifying an edit
// when they succeed: keel's one list (verify_patterns_extra adds to it).
var defaultVerifyPatterns = []string{
	"go test", "go build", "go vet", "make test", "make check", "make lint",
	"cargo test", "cargo build", "cargo check", "cargo clippy", "cargo nextest",
	"npm test", "npm run test", "npm run build", "npm run lint", "npx tsc", "tsc",
	"yarn test", "yarn run test", "pnpm test", "pnpm run test", "bun test", "deno test",
	"jest", "vitest", "npx jest", "npx vitest", "yarn jest", "yarn vitest", "pnpm jest", "pnpm vitest", "bun run test",
	"pytest", "py.test", "python -m pytest", "python3 -m pytest", "python -m unittest", "python3 -m unittest",
	"tox", "nox", "hatch test", "python -m tox", "python3 -m tox", "mypy", "ruff", "eslint",
	"golangci-lint", "staticcheck", "mvn test", "mvn verify", "./mvnw test", "./mvnw verify",
	"gradle test", "gradle check", "./gradlew test", "./gradlew check",
	"dotnet test", "dotnet build", "swift test", "swift build", "mix test",
	"rspec", "bundle exec rspec", "phpunit", "vendor/bin/phpunit", "composer test", "ctest", "zig build",
}

// defaultVerifySkipSuffixes are the file suffixes whose edits need no
// build or test: prose, and data and configuration files, which no test
// command checks (a model that edits one is not asked to run the tests).
var defaultVerifySkipSuffixes = []string{".md", ".markdown", ".txt", ".rst", ".adoc",
	".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".env", ".csv"}

// VerifyPatterns returns the commands that verify an edit: verify_patterns
// and verify_patterns_extra.
func (p Policy) VerifyPatterns() []string {
	return append(slices.Clip(p.list(verifyPatterns)), p.list(verifyExtra)...)
}

// unverified is the files changed since the last passing check.
type unverified struct {
	paths    []string // never written in place
	notified bool     // the current batch has had its reminder
}

func (u *unverified) clone() guardState { c := *u; return &c }

// Unverified lists the files changed since the last passing check.
func (s State) Unverified() []string {
	if u := peekState[*unverified](s, "verify"); u != nil {
		return slices.Clone(u.paths)
	}
	return nil
}

// observe keeps the files changed since the last passing check. A change
// opens a new batch; a successful verifying command closes it; a failing
// one leaves it open.
func (u *unverified) observe(c ToolCall, p *Policy) {
	for _, path := range c.Changed {
		if skipVerify(path, p.list(verifySkipSuffixes)) || slices.Contains(u.paths, path) {
			continue
		}
		u.paths = appendCopy(u.paths, path)
		u.notified = false
	}
	if c.Command == "" || failed(c) {
		return
	}
	if IsVerifying(c.Command, p.VerifyPatterns()) {
		u.paths, u.notified = nil, false
		return
	}
	// Running an edited script (bash scripts/x.sh, python3 app.py,
	// ./run.sh) and seeing it succeed checks that file.
	u.paths = slices.DeleteFunc(slices.Clone(u.paths), func(path string) bool { return runsFile(c.Command, path) })
}

// interpreters run the file named after their options.
var interpreters = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "python": true, "python3": true,
	"node": true, "ruby": true, "perl": true, "php": true, "bun": true, "deno": true, "Rscript": true, "lua": true, "tclsh": true}

// runsFile reports a part of command that executes path: path itself as
// the program, or as the first operand of an interpreter.
func runsFile(command, path string) bool {
	for _, part := range commandParts(command) {
		words := stripWrappers(strings.Fields(part))
		if len(words) == 0 {
			continue
		}
		if namesFile(words[0], path) {
			return true
		}
		if interpreters[words[0]] {
			for _, w := range words[1:] {
				if w == "run" || strings.HasPrefix(w, "-") {
					continue // deno run, python -u
				}
				if namesFile(w, path) {
					return true
				}
				break
			}
		}
	}
	return false
}

// namesFile reports whether a command word names the absolute path: the
// same path, or its tail after a directory boundary (scripts/x.sh,
// ./x.sh).
func namesFile(word, path string) bool {
	word = strings.TrimPrefix(strings.Trim(word, `"'`), "./")
	return word != "" && (word == path || strings.HasSuffix(path, "/"+word))
}

func skipVerify(path string, suffixes []string) bool {
	lower := strings.ToLower(path)
	for _, sfx := range suffixes {
		if sfx != "" && strings.HasSuffix(lower, strings.ToLower(sfx)) {
			return true
		}
	}
	return false
}

// verify reminds, once per batch of edits, a model that ends its turn
// with changes no check has passed since.
func verify(sum RoundSummary, p *Policy, s *State) *Intervention {
	u := stateOf[unverified](s, "verify")
	if !p.on(verifyOn) || !sum.EndedTurn || len(u.paths) == 0 || u.notified {
		return nil
	}
	u.notified = true
	files := nameList(u.paths, 8)
	return &Intervention{
		Kind:       KindVerify,
		AtToolCall: s.toolCalls,
		Action:     Inject,
		Message: fmt.Sprintf("You changed %s and ended your turn, but no check has passed since the last edit. Run the project's build or tests for these changes and report the result, or say why no check applies.",
			files),
		Note:    fmt.Sprintf("no check has passed since you changed %s: run the build or tests, or say why none applies.", files),
		Why:     fmt.Sprintf("turn ended with %s unverified: %s", plural(len(u.paths), "changed file"), files),
		Figures: map[string]int{"files": len(u.paths)},
	}
}

// IsVerifying reports whether a command runs one of the patterns: a
// pattern's first word is the program of one of the command's parts
// (split at &&, ||, ;, |), after environment assignments and wrappers
// such as env, time, sudo, timeout, npx, uv run or poetry run; its other
// words are the next words that are not options ("make -j4 test", "mvn
// -q verify", "cargo +nightly test", "npm --silent test" and "make -C sub
// check" match). A path to the program counts as its name
// ("./node_modules/.bin/jest"). "ls" and "cat" verify nothing unless
// listed.
func IsVerifying(command string, patterns []string) bool {
	for _, part := range commandParts(command) {
		words := stripWrappers(strings.Fields(part))
		for _, pat := range patterns {
			if matchesPattern(words, strings.Fields(pat)) {
				return true
			}
		}
	}
	return false
}

// matchesPattern matches a command's words against a pattern's.
func matchesPattern(words, pat []string) bool {
	if len(pat) == 0 || len(words) == 0 {
		return false
	}
	if words[0] != pat[0] && !(strings.Contains(words[0], "/") && !strings.Contains(pat[0], "/") && path.Base(words[0]) == pat[0]) {
		return false
	}
	if len(words) >= len(pat) && slices.Equal(words[1:len(pat)], pat[1:]) {
		return true // word for word, options included ("python -m pytest")
	}
	rest := operands(words[1:])
	return len(rest) >= len(pat)-1 && slices.EqualFunc(rest[:len(pat)-1], pat[1:], sameTask) && !slices.ContainsFunc(pat, isOption)
}

// sameTask matches an operand to a pattern's word; a Gradle task path
// (":app:test") names the task its last part names.
func sameTask(w, p string) bool {
	return w == p || (strings.HasPrefix(w, ":") && strings.HasSuffix(w, ":"+p))
}

func isOption(w string) bool { return strings.HasPrefix(w, "-") }

// valueFlags are options of build tools that take the next word as
// their value, so it is not the subcommand.
var valueFlags = map[string]bool{"-C": true, "-f": true, "--file": true, "--directory": true, "-pl": true,
	"--projects": true, "-p": true, "--package": true, "--prefix": true, "--manifest-path": true, "--project": true, "-P": true}

// operands are the words that are not options, nor an option's value.
func operands(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case valueFlags[w]:
			i++
		case strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+"):
		default:
			out = append(out, w)
		}
	}
	return out
}

// commandParts splits a command line at the shell's list and pipe operators.
func commandParts(cmd string) []string {
	return strings.FieldsFunc(cmd, func(r rune) bool {
		return r == '&' || r == '|' || r == ';' || r == '\n' || r == '(' || r == ')'
	})
}

// runners run the program after them: "uv run pytest" runs pytest.
var runners = map[string]bool{"uv run": true, "poetry run": true, "pipenv run": true, "pdm run": true,
	"hatch run": true, "rye run": true, "pnpm exec": true, "yarn exec": true, "npm exec": true}

// stripWrappers drops leading VAR=value words and wrapper commands.
func stripWrappers(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-"):
			words = words[1:]
		case w == "env" || w == "time" || w == "sudo" || w == "nice" || w == "command" || w == "npx" || w == "bunx":
			words = words[1:]
		case w == "timeout" && len(words) > 1:
			words = words[2:]
		case len(words) > 1 && runners[w+" "+words[1]]:
			words = words[2:]
		default:
			return words
		}
	}
	return words
}
