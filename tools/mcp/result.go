package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/keel-dev/keel/tools"
)

// maxImages is how many images of one result keel passes on.
const maxImages = 8

// result is a call's content for the model: its text capped, its images
// as images (the agent sends them as image input where the model accepts
// them), each also named in the text where it stood.
func (s *server) result(res *sdk.CallToolResult) tools.Result {
	var imgs []tools.Image
	text := contentsText(res.Content, &imgs)
	if text == "" && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			text = string(b)
		}
	}
	if text == "" {
		text = "(no output)"
	}
	return tools.Result{Output: tools.CapOutput(text, s.opts.MaxOutput), IsError: res.IsError, Images: imgs}
}

// contentsText is content items as text, one per line; images (and image
// resources) are appended to imgs and named in the text.
func contentsText(cs []sdk.Content, imgs *[]tools.Image) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		parts = append(parts, contentText(c, imgs))
	}
	return strings.Join(parts, "\n")
}

// contentText is one content item as text.
func contentText(c sdk.Content, imgs *[]tools.Image) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return imageText(c.Data, "image", imgs)
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes, not shown: keel does not pass audio on]", c.MIMEType, len(c.Data))
	case *sdk.ResourceLink:
		return fmt.Sprintf("[resource %s: %s]", c.Name, c.URI)
	case *sdk.EmbeddedResource:
		if c.Resource != nil {
			return resourceText(c.Resource, imgs)
		}
	}
	return fmt.Sprintf("[%T content, not shown]", c)
}

// resourceText is a resource's contents as text: its text, or its blob as
// an image when it is one.
func resourceText(r *sdk.ResourceContents, imgs *[]tools.Image) string {
	switch {
	case r.Text != "":
		return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
	case strings.HasPrefix(r.MIMEType, "image/"):
		return imageText(r.Blob, "resource "+r.URI, imgs)
	}
	return fmt.Sprintf("[resource %s, %s, %d bytes, not shown]", r.URI, r.MIMEType, len(r.Blob))
}

// imageText checks an image and keeps it, returning how the text names it.
func imageText(data []byte, name string, imgs *[]tools.Image) string {
	im, err := tools.NewImage(data, name)
	switch {
	case err != nil:
		return fmt.Sprintf("[%s, %d bytes, not shown: %v]", name, len(data), err)
	case len(*imgs) == maxImages:
		return fmt.Sprintf("[%s %d×%d, not shown: at most %d images per result]", name, im.Width, im.Height, maxImages)
	}
	*imgs = append(*imgs, im)
	return fmt.Sprintf("[%s %d×%d %s]", name, im.Width, im.Height, im.MIME)
}
