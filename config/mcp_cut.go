package config

import (
	"bytes"
	"strings"
)

// cutServer removes the tables [mcp.servers.NAME] and [mcp.servers.NAME.*]
// from doc, each up to the next table header; cut is false when doc has
// no such table (the server is written another way).
func cutServer(doc []byte, name string) (out []byte, cut bool) {
	lines := bytes.SplitAfter(doc, []byte("\n"))
	skipping := false
	for _, l := range lines {
		if h, ok := tableHeader(l); ok {
			skipping = isServerTable(h, name)
			cut = cut || skipping
		}
		if !skipping {
			out = append(out, l...)
		}
	}
	out = bytes.TrimRight(out, "\n\t ")
	if len(out) > 0 {
		out = append(out, '\n')
	}
	return out, cut
}

// tableHeader returns the dotted key of a [table] header line.
func tableHeader(line []byte) (string, bool) {
	s := strings.TrimSpace(string(line))
	if !strings.HasPrefix(s, "[") || strings.HasPrefix(s, "[[") {
		return "", false
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return "", false
	}
	if rest := strings.TrimSpace(s[end+1:]); rest != "" && !strings.HasPrefix(rest, "#") {
		return "", false
	}
	return s[1:end], true
}

// isServerTable reports whether a header's key is the server's table or
// one of its sub-tables, quoted or not.
func isServerTable(key, name string) bool {
	var parts []string
	for _, p := range strings.Split(key, ".") {
		parts = append(parts, strings.Trim(strings.TrimSpace(p), `"'`))
	}
	return len(parts) >= 3 && parts[0] == "mcp" && parts[1] == "servers" && parts[2] == name
}
