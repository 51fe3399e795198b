package discipline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
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
	tmpPathRE = regexp.MustCompile(`(?:/private)?(?:/tmp|/var/folders|/var/tmp)(?:/[^\s:'"),]*)?|[A-Za-z]:\\[^\s:]*\\Temp\\[^\s:'"),]*`)
	hexRE     = regexp.MustCompile(`0x[0-9a-fA-F]+`)
	digitsRE  = regexp.MustCompile(`[0-9]+`)
	spacesRE  = regexp.MustCompile(`\s+`)
	// Durations change on every run of the same command: 0.123s, 15ms.
	durationRE = regexp.MustCompile(`\b[0-9]+(?:\.[0-9]+)?(?:ns|us|µs|ms|s|m|h)\b`)
)

// NormalizeError returns the first non-empty line of an error text with
// the parts that change between identical failures collapsed: temporary
// paths become <tmp>, hex addresses <addr>, digit runs N (line numbers, PIDs,
// durations). It is idempotent.
func NormalizeError(text string) string {
	line := firstLine(text)
	line = tmpPathRE.ReplaceAllString(line, "<tmp>")
	line = hexRE.ReplaceAllString(line, "<addr>")
	line = digitsRE.ReplaceAllString(line, "N")
	line = spacesRE.ReplaceAllString(line, " ")
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
func HashOutput(output string) string {
	output = durationRE.ReplaceAllString(output, "<dur>")
	return Hash(tmpPathRE.ReplaceAllString(output, "<tmp>"))
}

// Hash returns a short stable hash of a tool's output or a file's content,
// for ToolCall.ResultHash and Read.Version.
func Hash(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	return fmt.Sprintf("%016x", h.Sum64())
}
