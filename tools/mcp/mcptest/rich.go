package mcptest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Banner is what the "banner" mode prints on stdout before serving; the
// noisy tool prints NoiseLine.
const (
	Banner    = "Loading config... done"
	NoiseLine = "noisy: a stray line on stdout"
)

// ImageWidth and ImageHeight are the size of the image tool's picture.
const ImageWidth, ImageHeight = 3, 2

// TextResource and ImageResource are the resources' URIs.
const (
	TextResource  = "mcptest://notes/readme"
	ImageResource = "mcptest://images/dot"
	TextBody      = "the readme resource's text"
)

// ProgressIn is the progress tool's input.
type ProgressIn struct {
	Steps int `json:"steps" jsonschema:"how many progress notifications to send"`
}

// PNG is the image tool's picture: ImageWidth×ImageHeight pixels.
func PNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, ImageWidth, ImageHeight))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// addRichTools adds the tools, resources and prompts that go beyond text.
func addRichTools(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "progress", Description: "report progress steps, then answer"}, progress)
	sdk.AddTool(s, &sdk.Tool{Name: "image", Description: "return a small PNG"}, imageTool)
	sdk.AddTool(s, &sdk.Tool{Name: "noisy", Description: "print a line on stdout that is not JSON-RPC, then answer"}, noisy)
	s.AddResource(&sdk.Resource{URI: TextResource, Name: "readme", MIMEType: "text/plain", Description: "a text resource"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: TextResource, MIMEType: "text/plain", Text: TextBody}}}, nil
		})
	s.AddResource(&sdk.Resource{URI: ImageResource, Name: "dot", MIMEType: "image/png"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: ImageResource, MIMEType: "image/png", Blob: PNG()}}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "review", Description: "review a file with a focus",
		Arguments: []*sdk.PromptArgument{{Name: "file", Required: true}, {Name: "focus"}}}, review)
}

func progress(ctx context.Context, req *sdk.CallToolRequest, in ProgressIn) (*sdk.CallToolResult, any, error) {
	token := req.Params.GetProgressToken()
	for i := 1; i <= in.Steps && token != nil; i++ {
		err := req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token,
			Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d", i)})
		if err != nil {
			return nil, nil, err
		}
	}
	if token != nil {
		// As a real long-running tool's steps would, the steps reach the
		// client before the answer: the SDK's client handles notifications
		// in order and ahead of a later ping, while a response may overtake
		// them, so a round trip after the last step keeps tests that watch
		// for progress during the call from depending on scheduling.
		if err := req.Session.Ping(ctx, nil); err != nil {
			return nil, nil, err
		}
	}
	return text(fmt.Sprintf("progress: %d steps, token %v", in.Steps, token != nil)), nil, nil
}

func imageTool(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "here is the picture"},
		&sdk.ImageContent{MIMEType: "image/png", Data: PNG()}}}, nil, nil
}

func noisy(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
	fmt.Fprintln(os.Stdout, NoiseLine)
	return text("noisy: done"), nil, nil
}

func review(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	a := req.Params.Arguments
	msg := "Review " + a["file"]
	if a["focus"] != "" {
		msg += " for " + a["focus"]
	}
	return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: msg}}}}, nil
}
