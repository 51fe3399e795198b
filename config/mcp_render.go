package config

import (
	"fmt"
	"slices"
	"strings"
)

// renderMCP writes the MCP servers for Render. Env and header values are
// shown as "***": they hold tokens. A server an untrusted project defined
// is named with where it was ignored.
func renderMCP(b *strings.Builder, c *Config) {
	for _, s := range c.MCPServers() {
		key := "mcp.servers." + s.Name
		fmt.Fprintf(b, "\n[mcp.servers.%s]  # %s\n", tomlKey(s.Name), commentSafe(c.sourceNote(key)))
		if s.Problem != "" {
			fmt.Fprintf(b, "# not started: %s\n", commentSafe(s.Problem))
		}
		for _, f := range mcpFields {
			v := ""
			switch {
			case f.ptr != nil:
				v = formatValue(f.ptr(&s))
			case f.key == "env":
				v = maskedTable(s.Env)
			default:
				v = maskedTable(s.Headers)
			}
			writeLine(b, f.key, v, c.sourceNote(key+"."+f.key))
		}
	}
	for _, key := range ignoredServers(c) {
		fmt.Fprintf(b, "\n# [%s] IGNORED %s (project not trusted)\n", commentSafe(key), commentSafe(c.ignored[key].String()))
	}
}

// ignoredServers are the keys of servers an untrusted project defined
// that no other layer defines, sorted.
func ignoredServers(c *Config) []string {
	var keys []string
	for k := range c.ignored {
		name, ok := strings.CutPrefix(k, "mcp.servers.")
		if _, defined := c.MCP.Servers[name]; ok && !defined {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// maskedTable writes a table of strings inline with every value masked.
func maskedTable(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = tomlKey(k) + ` = "***"`
	}
	if len(parts) == 0 {
		return "{}"
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}
