package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

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
