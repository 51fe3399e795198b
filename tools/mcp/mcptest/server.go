// Package mcptest is a real MCP server built on the official SDK, for
// keel's tests: tools that echo, hang until cancelled, crash the process,
// return huge output, report an environment variable, start a grandchild,
// report progress, return an image and print noise on stdout; a text and
// an image resource; prompts with arguments. ServeStdio runs it over
// stdin/stdout (a test binary that re-executes itself, or
// testdata/mcpserver); Handler serves it over streamable HTTP.
package mcptest

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Environment variables that change how ServeStdio behaves.
const (
	// ModeEnv: "hang-start" never answers the handshake; "exit-start"
	// exits with status 2 at once, after a line on stderr; "banner"
	// prints lines that are not JSON-RPC on stdout before serving, as a
	// wrapper script does.
	ModeEnv = "KEEL_MCPTEST_MODE"
	// MarkerEnv names a file the hang tool writes "cancelled" to when its
	// call is cancelled, so a test sees cancellation reach the server.
	MarkerEnv = "KEEL_MCPTEST_MARKER"
)

// EchoIn is the echo tool's input.
type EchoIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

// HugeIn is the huge tool's input.
type HugeIn struct {
	Bytes int `json:"bytes" jsonschema:"how many bytes to return"`
}

// EnvIn is the env tool's input.
type EnvIn struct {
	Name string `json:"name" jsonschema:"an environment variable"`
}

// NewServer is the test server with its tools.
func NewServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "mcptest", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "echo the text back",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, echo)
	sdk.AddTool(s, &sdk.Tool{Name: "hang", Description: "answers only when cancelled (or after a minute)"}, hang)
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "the server process exits with status 3"}, crash)
	sdk.AddTool(s, &sdk.Tool{Name: "huge", Description: "return this many bytes of text"}, huge)
	sdk.AddTool(s, &sdk.Tool{Name: "env", Description: "the value of an environment variable"}, env)
	sdk.AddTool(s, &sdk.Tool{Name: "spawn", Description: "start a grandchild that sleeps; returns its pid"}, spawn)
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "a call that fails as a tool error"}, fail)
	sdk.AddTool(s, &sdk.Tool{Name: "odd name.with/chars", Description: "a name keel must sanitise"}, echo)
	addRichTools(s)
	return s
}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

func echo(_ context.Context, _ *sdk.CallToolRequest, in EchoIn) (*sdk.CallToolResult, any, error) {
	return text("echo: " + in.Text), nil, nil
}

func hang(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute): // a lost cancellation fails a test, never hangs it
		return text("hang: nobody cancelled the call"), nil, nil
	}
	if p := os.Getenv(MarkerEnv); p != "" {
		_ = os.WriteFile(p, []byte("cancelled"), 0o600)
	}
	return nil, nil, ctx.Err()
}

func crash(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
	fmt.Fprintln(os.Stderr, "mcptest: crashing on purpose")
	os.Exit(3)
	return nil, nil, nil
}

func huge(_ context.Context, _ *sdk.CallToolRequest, in HugeIn) (*sdk.CallToolResult, any, error) {
	line := strings.Repeat("x", 99) + "\n"
	out := strings.Repeat(line, in.Bytes/100+1)[:in.Bytes]
	return text(out), nil, nil
}

func env(_ context.Context, _ *sdk.CallToolRequest, in EnvIn) (*sdk.CallToolResult, any, error) {
	v, ok := os.LookupEnv(in.Name)
	if !ok {
		return text(in.Name + " is not set"), nil, nil
	}
	return text(in.Name + "=" + v), nil, nil
}

func spawn(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
	cmd := exec.Command("sleep", "600")
	// its own session: out of reach of a kill of the server's process
	// group, as a daemon a real server starts would be
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return text(fmt.Sprint(cmd.Process.Pid)), nil, nil
}

func fail(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "it failed on purpose"}}}, nil, nil
}

// ServeStdio serves the test server on stdin/stdout until stdin closes.
func ServeStdio() {
	fmt.Fprintln(os.Stderr, "mcptest: starting")
	switch os.Getenv(ModeEnv) {
	case "hang-start":
		time.Sleep(time.Hour)
	case "exit-start":
		fmt.Fprintln(os.Stderr, "mcptest: refusing to start")
		os.Exit(2)
	case "banner":
		fmt.Println(Banner)
		fmt.Println(`{"level":"info","msg":"a JSON log line, not JSON-RPC"}`)
		fmt.Println()
	}
	if err := NewServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "mcptest:", err)
	}
}

// Handler serves the test server over streamable HTTP.
func Handler() http.Handler {
	s := NewServer()
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
}
