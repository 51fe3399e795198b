package mcp

import (
	"fmt"
	"strings"
)

// Report is the servers' statuses as plain text, for /mcp and keel mcp
// list: one line per server, then its tools and the last lines of its
// stderr, indented. The text holds what servers wrote: sanitise it for
// a terminal.
func Report(sts []Status) string {
	if len(sts) == 0 {
		return "no MCP servers are configured (add an [mcp.servers.NAME] table to keel's configuration)"
	}
	var b strings.Builder
	for i, st := range sts {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeStatus(&b, st)
	}
	return strings.TrimRight(b.String(), "\n")
}

func writeStatus(b *strings.Builder, st Status) {
	fmt.Fprintf(b, "%s: %s (%s: %s)", st.Name, st.State, st.Transport, st.Target)
	if st.Err != "" {
		fmt.Fprintf(b, " — %s", st.Err)
	}
	b.WriteByte('\n')
	if len(st.Tools) > 0 {
		names := make([]string, len(st.Tools))
		for i, t := range st.Tools {
			names[i] = t.Name
			if t.ReadOnly {
				names[i] += " (read-only)"
			}
		}
		fmt.Fprintf(b, "  tools (%d): %s\n", len(st.Tools), strings.Join(names, ", "))
	}
	if st.Omitted > 0 {
		fmt.Fprintf(b, "  %d more tools not offered (at most %d per server)\n", st.Omitted, MaxTools)
	}
	if st.Stderr != "" {
		b.WriteString("  stderr:\n")
		for _, l := range strings.Split(st.Stderr, "\n") {
			fmt.Fprintf(b, "    %s\n", l)
		}
	}
}
