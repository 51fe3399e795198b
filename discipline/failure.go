package discipline

import (
	"encoding/json"
	"strconv"
	"strings"
)

// genericRE matches lines that frame a failure without saying what it is:
// tracebacks' and test runners' headers and summaries, build tools'
// banners, stack frames, keel's own exit-code footer.
var genericRE = lazyRegexp(`^(?:` + strings.Join([]string{
	`Traceback \(most recent call last\):`,
	`During handling of the above exception.*`,
	`--- FAIL\b.*`, `FAIL\b.*`, `ok\s.*`, `PASS`, `exit status -?\d+`, `# \S+`,
	`(?i:error|errors|panic|fatal|failure|failures|warning)\s*:?`, `\[recovered\]`,
	`npm (?:ERR!|error|warn).*`, `make(?:\[\d+\])?: \*\*\*.*`, `error Command failed.*`,
	`ELIFECYCLE.*`, `Command exited with.*`,
	`=+.*=+`, `-+`, `_+.*_+`, `\*+.*\*+`,
	`FAILED \(.*\)`, `(?:Tests|Test Suites|Snapshots|Time|Ran all test suites).*`,
	`test result:.*`, `error: (?:could not compile|test failed|aborting due to).*`,
	`warning: build failed.*`, `For more information about this error.*`, `\d*\s*\|.*`, `-->.*`,
	`(?:\d+ warnings? and )?\d+ errors? generated\.`, `failures:`, `goroutine \d+ \[.*`, `created by .*`,
	`File ".*", line \d+.*`, `at .*\(?\S+:\d+(?::\d+)?\)?`, `\S+\.\w+:\d+ \+0x[0-9a-f]+`,
	`[\w./*()\[\]-]+\((?:\.\.\.|[0-9a-fx?{}, ]*)\)`, // a Go stack frame: pkg.Func({0x1, 0x2})
	`\(no output\)`, `\[exit code .*`, `\[cancelled .*`, `\[\.\.\. .* cut \.\.\.\]`,
}, "|") + `)$`)

// errorishRE matches lines that say what went wrong: exceptions, file:line
// diagnostics, assertions, "error"/"failed"/"not found" phrases.
var errorishRE = lazyRegexp(strings.Join([]string{
	`\b[A-Z]\w*(?:Error|Exception|Exit)\b`,
	`(?i)\berror\b`,
	`\S+:\d+(?::\d+)?:\s`,
	`\S+\(\d+,\d+\):`,
	`(?i)\bassert`,
	`(?i)\bpanic(?:ked)?\b`,
	`(?i)\bfail(?:ed|s|ure)?\b`,
	`(?i)\bfatal\b`,
	`(?i)not found|no such file|permission denied|cannot|can't|undefined|timed out|refused|denied|invalid|mismatch|unexpected`,
	`^E\s{2,}\S`, `^●`,
}, "|"))

// FailureLine picks the most informative line of a command's failing
// output: the last line that reads as an error (an exception, a file:line
// diagnostic, an assertion) and is not a generic header such as
// "Traceback (most recent call last):", "--- FAIL: TestX", "FAIL\tpkg",
// npm's "npm ERR!" lines or make's "make: ***"; failing that, the last
// non-empty line that is not generic; failing that, the first non-empty
// line. The line is trimmed, not normalized. A one-line text is returned
// as it is (trimmed), so FailureLine is idempotent.
func FailureLine(output string) string {
	var first, lastPlain, lastErr string
	for _, l := range strings.Split(output, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if first == "" {
			first = l
		}
		if genericRE().MatchString(l) {
			continue
		}
		lastPlain = l
		if errorishRE().MatchString(l) {
			lastErr = l
		}
	}
	switch {
	case lastErr != "":
		return lastErr
	case lastPlain != "":
		return lastPlain
	}
	return first
}

// failureLine is the normalized line a failure is compared by: for a
// command, FailureLine of its output; for a tool's own error, its first
// line (keel's tools put the message first). A command that printed
// nothing is compared by its exit code.
func failureLine(c ToolCall) string {
	text := c.ErrorLine
	if c.Command != "" {
		text = FailureLine(text)
	}
	l := normalizeFailure(firstLine(text))
	if uninformative(l) && c.Command != "" {
		return "(no output), exit code " + strconv.Itoa(c.ExitCode)
	}
	return l
}

// locationRE matches a source location such as "p1_test.go:12" or
// "src/lib.rs:2:9".
var locationRE = lazyRegexp(`[\w./-]*\.[A-Za-z]\w*:\d+(?::\d+)?`)

// normalizeFailure is NormalizeError for failure identity: it also
// collapses what changes between identical failures (temporary paths,
// addresses, numbers), but keeps source locations, so two different
// assertions failing ("a_test.go:12", "a_test.go:30") stay different.
func normalizeFailure(line string) string {
	line = tmpPathRE().ReplaceAllString(line, "<tmp>")
	line = hexRE().ReplaceAllString(line, "<addr>")
	var b strings.Builder
	last := 0
	for _, m := range locationRE().FindAllStringIndex(line, -1) {
		b.WriteString(digitsRE().ReplaceAllString(line[last:m[0]], "N"))
		b.WriteString(line[m[0]:m[1]])
		last = m[1]
	}
	b.WriteString(digitsRE().ReplaceAllString(line[last:], "N"))
	line = spacesRE().ReplaceAllString(b.String(), " ")
	if len(line) > maxErrorLine {
		line = line[:maxErrorLine]
	}
	return line
}

func uninformative(line string) bool {
	return line == "" || strings.HasPrefix(line, "(no output)") || strings.HasPrefix(line, "[exit code")
}

// callTarget is what a call acts on, for failure identity: for a command,
// where and how it ran (the working directory, then the command line with
// its whitespace collapsed, environment assignments included), else the
// "path" argument, else all the normalized arguments.
func callTarget(c ToolCall) string {
	if c.Command != "" {
		return commandIdentity(c)
	}
	var a map[string]any
	if json.Unmarshal([]byte(c.Args), &a) == nil {
		for _, k := range []string{"path", "file_path", "file"} {
			if p, ok := a[k].(string); ok && p != "" {
				return p
			}
		}
	}
	return c.Args
}

// NormalizeCommand returns a command line with its whitespace collapsed
// and a trailing "2>&1" dropped, so two spellings of one command compare
// equal. Digits are kept: "python3 s1.py" and "python3 s2.py" differ.
func NormalizeCommand(cmd string) string {
	cmd = strings.Join(strings.Fields(cmd), " ")
	return strings.TrimSpace(strings.TrimSuffix(cmd, "2>&1"))
}

// commandIdentity is a command as failure identity and the rerun rule
// compare it: the normalized command line, and the working directory
// when it is not the workspace's root ("go test ./... in pkg/a").
func commandIdentity(c ToolCall) string {
	cmd := NormalizeCommand(c.Command)
	if w := cleanWorkdir(c.Workdir); w != "" {
		return cmd + " in " + w
	}
	return cmd
}

// cleanWorkdir drops the spellings of the workspace's root ("", ".", "./").
func cleanWorkdir(w string) string {
	w = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(w), "./"), "/")
	if w == "." {
		return ""
	}
	return w
}
