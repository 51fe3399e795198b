package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Prefix starts the name of every MCP tool keel offers: mcp__SERVER__TOOL.
const Prefix = "mcp__"

// maxNameLen is the longest tool name OpenAI's API accepts.
const maxNameLen = 64

// ToolName is the name the model sees for a server's tool: Prefix, the
// server, "__" and the tool, with every character outside [A-Za-z0-9_-]
// made "_", cut to 64 characters with a hash of the original names when
// longer.
func ToolName(server, tool string) string {
	n := Prefix + sanitize(server) + "__" + sanitize(tool)
	if len(n) <= maxNameLen {
		return n
	}
	return hashedName(server, tool)
}

// hashedName is a long or colliding name made unique and short: cut, then
// "_" and eight hex digits of the SHA-256 of server and tool.
func hashedName(server, tool string) string {
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	suffix := "_" + hex.EncodeToString(sum[:4])
	n := Prefix + sanitize(server) + "__" + sanitize(tool)
	return n[:min(len(n), maxNameLen-len(suffix))] + suffix
}

// sanitize replaces what OpenAI's function names do not accept.
func sanitize(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// serverOf is the server part of a tool name ("github" for
// mcp__github__create_issue), or "" when the name has no such shape.
// Server names never hold "__" (CheckName), so the first one ends it.
func serverOf(name string) string {
	rest, ok := strings.CutPrefix(name, Prefix)
	if !ok {
		return ""
	}
	server, _, ok := strings.Cut(rest, "__")
	if !ok {
		return ""
	}
	return server
}
