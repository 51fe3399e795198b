package discipline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// NormalizeArgs returns the canonical form of a tool call's JSON
// arguments: sorted keys, no whitespace, numbers as written, no HTML
// escaping. Text that is not JSON comes back trimmed, so it still compares.
func NormalizeArgs(args string) string {
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return strings.TrimSpace(args)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return strings.TrimSpace(args)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// maxErrorLine bounds a normalized error line.
const maxErrorLine = 200

var (
	// Temporary paths differ on every run: /tmp/go-build123/x, /var/folders/...
	tmpPathRE = lazyRegexp(`(?:/private)?(?:/tmp|/var/folders|/var/tmp)(?:/[^\s:'"),]*)?|[A-Za-z]:\\[^\s:]*\\Temp\\[^\s:'"),]*`)
	hexRE     = lazyRegexp(`0x[0-9a-fA-F]+`)
	digitsRE  = lazyRegexp(`[0-9]+`)
	spacesRE  = lazyRegexp(`\s+`)
	// Durations change on every run of the same command: 0.123s, 15ms.
	durationRE = lazyRegexp(`\b[0-9]+(?:\.[0-9]+)?(?:ns|us|µs|ms|s|m|h)\b`)
)

// NormalizeError returns the first non-empty line of an error text with
// the parts that change between identical failures collapsed: temporary
// paths become <tmp>, hex addresses <addr>, digit runs N (line numbers, PIDs,
// durations). It is idempotent.
func NormalizeError(text string) string {
	line := firstLine(text)
	line = tmpPathRE().ReplaceAllString(line, "<tmp>")
	line = hexRE().ReplaceAllString(line, "<addr>")
	line = digitsRE().ReplaceAllString(line, "N")
	line = spacesRE().ReplaceAllString(line, " ")
	if len(line) > maxErrorLine {
		line = line[:maxErrorLine]
	}
	return line
}

func firstLine(text string) string {
	for text != "" {
		var l string
		l, text, _ = strings.Cut(text, "\n")
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// HashOutput hashes a tool's output for ToolCall.ResultHash with the parts
// that differ between identical runs collapsed (durations, temporary
// paths), so rerunning an unchanged command hashes the same.
// It runs every round on outputs up to tool_output_cap, so the regular
// expressions run only when a cheap scan finds something they could match.
func HashOutput(output string) string {
	if mayHoldDuration(output) {
		output = durationRE().ReplaceAllString(output, "<dur>")
	}
	if mayHoldTmpPath(output) {
		output = tmpPathRE().ReplaceAllString(output, "<tmp>")
	}
	return Hash(output)
}

// mayHoldDuration reports a digit run (with an optional fraction)
// followed by the first byte of a unit durationRE knows: every match of
// durationRE has one.
func mayHoldDuration(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
			for j++; j < len(s) && isDigit(s[j]); j++ {
			}
		}
		if j < len(s) && strings.IndexByte("numsh\xc2", s[j]) >= 0 { // \xc2 starts µ
			return true
		}
		i = j
	}
	return false
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// mayHoldTmpPath reports the fixed text every match of tmpPathRE holds.
func mayHoldTmpPath(s string) bool {
	return strings.Contains(s, "/tmp") || strings.Contains(s, "/var/folders") ||
		strings.Contains(s, `\Temp\`)
}

// Hash returns a short stable hash of a tool's output or a file's content,
// for ToolCall.ResultHash and Read.Version: FNV-1a, 64 bits, over the
// string's bytes without copying them.
func Hash(s string) string {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * prime
	}
	return fmt.Sprintf("%016x", h)
}

// lazyRegexp compiles expr on its first use: every keel process links
// discipline (keel --version and the sandbox helper too), and a run needs
// few of its patterns, often none.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
