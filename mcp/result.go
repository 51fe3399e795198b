package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// resultText is a call's content as text for the model: text as is,
// other content described in one line, structured content as JSON when
// there is nothing else.
func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	if len(parts) == 0 {
		return "(no output)"
	}
	return strings.Join(parts, "\n")
}

// contentText is one content item as text.
func contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image %s, %d bytes, not shown]", c.MIMEType, len(c.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes, not shown]", c.MIMEType, len(c.Data))
	case *sdk.ResourceLink:
		return fmt.Sprintf("[resource %s: %s]", c.Name, c.URI)
	case *sdk.EmbeddedResource:
		if r := c.Resource; r != nil {
			if r.Text != "" {
				return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
			}
			return fmt.Sprintf("[resource %s, %s, %d bytes, not shown]", r.URI, r.MIMEType, len(r.Blob))
		}
	}
	return fmt.Sprintf("[%T content, not shown]", c)
}

// noteRoom is kept free for capText's note, so a capped result stays
// within the cap and the agent's own cap leaves it alone.
const noteRoom = 160

// capText keeps the head and tail of s within max bytes, as the agent
// caps every tool's output, so a huge result is cut before it travels on.
func capText(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	keep := max - min(noteRoom, max/2)
	head := runeStart(s, keep*3/4)
	tail := len(s) - runeStart(s, len(s)-(keep-keep*3/4))
	cut := s[head : len(s)-tail]
	note := fmt.Sprintf("\n\n[... %d bytes (%d lines) of the MCP tool's output cut by keel; narrow the request to see them ...]\n\n",
		len(cut), strings.Count(cut, "\n"))
	return s[:head] + note + s[len(s)-tail:]
}

// runeStart moves i back to the start of the character it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
