package transcript

import (
	"regexp"
	"strings"

	"github.com/keel-dev/keel/internal/lazyre"
	"github.com/keel-dev/keel/tools"
)

// maxFailureLines is how many lines a failed call shows before it is
// expanded.
const maxFailureLines = 4

// failurePatterns match the lines that say why a command failed: go
// test's failures, compiler and t.Errorf lines ("x.go:7: ..."), panics,
// Python's exceptions and unittest/pytest summaries, "error:" lines.
var failurePatterns = []func() *regexp.Regexp{
	lazyre.New(`^\s*--- FAIL`),
	lazyre.New(`^FAIL\s+\S`), // FAIL<tab>package, not the bare FAIL
	lazyre.New(`^\s*[\w./\\-]+\.go:\d+(:\d+)?: `),
	lazyre.New(`^panic: `),
	lazyre.New(`^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit)\b(:|$)`),
	lazyre.New(`^(FAIL|ERROR|FAILED)[: ]`),
	lazyre.New(`^E\s{2,}\S`),
	lazyre.New(`(?i)\b(error|fatal)\b:`),
}

// traceFile is a frame line of a Python traceback.
var traceFile = lazyre.New(`^\s*File ".*", line \d+`)

// exitLine is the line run_command ends its output with.
var exitLine = lazyre.New(`^\[(exit code -?\d+, [0-9.]+s|timed out .*|cancelled .*)\]$`)

// failurePreview is what a collapsed failed call shows: a command's lines
// that explain the failure (its first line is often unrelated output);
// another tool's first line, which says what went wrong.
func (t *toolCall) failurePreview() []string {
	if t.name == tools.NameRunCommand {
		return failureLines(t.output)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(t.output), "\n")
	return []string{first}
}

// failureLines are the lines of a failed call's output that explain the
// failure, at most maxFailureLines: those failurePatterns match, and a
// Python traceback's innermost frame; else the last lines.
func failureLines(output string) []string {
	lines := strings.Split(strings.TrimRight(output, "\n"), "\n")
	if n := len(lines); n > 1 && exitLine().MatchString(strings.TrimSpace(lines[n-1])) {
		lines = lines[:n-1] // run_command's own line, not the command's
	}
	frame := lastFrame(lines)
	var out []string
	for i, l := range lines {
		if i == frame || explains(l) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		out = tail(lines)
	}
	return out[:min(len(out), maxFailureLines)]
}

func explains(line string) bool {
	for _, p := range failurePatterns {
		if p().MatchString(line) {
			return true
		}
	}
	return false
}

// lastFrame is the index of the last traceback frame line (where the
// exception was raised), -1 when there is none.
func lastFrame(lines []string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if traceFile().MatchString(lines[i]) {
			return i
		}
	}
	return -1
}

// tail is the last non-blank lines of output.
func tail(lines []string) []string {
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < maxFailureLines-1; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			out = append([]string{lines[i]}, out...)
		}
	}
	return out
}
