package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// listing is what a server offers, listed when it starts.
type listing struct {
	tools     []*sdk.Tool
	resources int // how many resources it listed (bounded by maxListed)
	prompts   []*sdk.Prompt
}

// maxListed bounds how many resources or prompts keel lists from one
// server: a server paging forever does not hold its start.
const maxListed = 1000

// list lists the server's tools, and its resources and prompts when it
// declares them. A server that declares resources or prompts but fails to
// list them still starts: its tools are what matter most.
func list(ctx context.Context, sess *sdk.ClientSession) (listing, error) {
	var out listing
	var err error
	if out.tools, err = listTools(ctx, sess); err != nil {
		return out, fmt.Errorf("listing its tools: %w", err)
	}
	caps := capabilities(sess)
	if caps.Resources != nil {
		for _, err := range sess.Resources(ctx, nil) {
			if err != nil || out.resources == maxListed {
				break
			}
			out.resources++
		}
	}
	if caps.Prompts != nil {
		for p, err := range sess.Prompts(ctx, nil) {
			if err != nil || len(out.prompts) == maxListed {
				break
			}
			out.prompts = append(out.prompts, p)
		}
	}
	return out, nil
}

// capabilities is what the server declared it offers.
func capabilities(sess *sdk.ClientSession) sdk.ServerCapabilities {
	if r := sess.InitializeResult(); r != nil && r.Capabilities != nil {
		return *r.Capabilities
	}
	return sdk.ServerCapabilities{}
}

// PromptCommand is the slash command that runs a server's prompt, without
// its slash: "SERVER:PROMPT".
func PromptCommand(server, prompt string) string { return server + ":" + prompt }
