package mcp

import (
	"fmt"
	"strings"
)

// Report is the servers' statuses as plain text, for /mcp and keel mcp
// list: one line per server (its state, transport and target, and why it
// failed), then, indented, its tools one per line (a name is never split
// by wrapping), what else it offers, the stdout lines keel skipped and
// the last lines of its stderr. The text holds what servers wrote:
// sanitise it for a terminal.
func Report(sts []Status) string {
	if len(sts) == 0 {
		return "no MCP servers are configured (keel mcp add NAME -- COMMAND, or an [mcp.servers.NAME] table in keel's configuration)"
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
		fmt.Fprintf(b, "  tools (%d):\n", len(st.Tools))
		for _, t := range st.Tools {
			fmt.Fprintf(b, "    %s", t.Name)
			if t.ReadOnly {
				b.WriteString(" (read-only)")
			}
			b.WriteByte('\n')
		}
	}
	if st.Omitted > 0 {
		fmt.Fprintf(b, "  %d more tools not offered (at most %d per server)\n", st.Omitted, MaxTools)
	}
	writeOffers(b, st)
	writeLines(b, "stdout lines that were not JSON-RPC (skipped)", st.Noise, "")
	writeLines(b, "stderr", st.Stderr, st.Err)
}

// writeOffers lists the server's resources and prompts, when it has any.
func writeOffers(b *strings.Builder, st Status) {
	if st.Resources > 0 {
		fmt.Fprintf(b, "  resources: %d (the model reads them with %s and %s)\n", st.Resources, ListResourcesTool, ReadResourceTool)
	}
	if len(st.Prompts) > 0 {
		fmt.Fprintf(b, "  prompts (%d):\n", len(st.Prompts))
		for _, p := range st.Prompts {
			fmt.Fprintf(b, "    /%s\n", p)
		}
	}
}

// writeLines writes a titled block of a server's output, indented; a
// line the error above already quotes is left out, so each error shows
// once.
func writeLines(b *strings.Builder, title, text, quoted string) {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) != "" && (quoted == "" || !strings.Contains(quoted, strings.TrimSpace(l))) {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "  %s:\n", title)
	for _, l := range lines {
		fmt.Fprintf(b, "    %s\n", l)
	}
}
