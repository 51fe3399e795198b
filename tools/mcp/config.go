package mcp

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"time"
)

// ServerConfig is one server, an [mcp.servers.NAME] table: a stdio
// Command (with Args and Env) or a streamable HTTP URL (with Headers).
type ServerConfig struct {
	Name    string
	Command string
	Args    []string
	// Env is added to the scrubbed environment the command inherits: the
	// place to give a server its token. Values may use ${VAR}.
	Env map[string]string
	URL string
	// Headers are sent with every HTTP request; values may use ${VAR}.
	Headers      map[string]string
	StartTimeout time.Duration // 0: no limit (config's startup_timeout)
	CallTimeout  time.Duration // 0: no limit (config's call_timeout)
	// TrustReadOnly lets a tool the server marks readOnlyHint run without
	// asking, as keel's own read-only tools do. Off by default: a hostile
	// server can lie.
	TrustReadOnly bool
	// Problem is why the configuration cannot be used; such a server is
	// listed with it and never started.
	Problem string
}

// Defaults for Options.
const (
	DefaultStderrMax = 16 << 10
	// MaxTools is how many tools of one server keel offers; the rest are
	// left out (and said so in the server's status).
	MaxTools = 128
)

// Options configure a Manager. They come in as plain values so this
// package never depends on config.
type Options struct {
	// Env is the base environment of stdio servers, already without
	// secret variables (keel gives run_command the same); nil means none.
	Env []string
	// Dir is the stdio servers' working directory (the workspace).
	Dir string
	// Getenv expands ${VAR} in Env and Headers values; nil is os.Getenv.
	Getenv func(string) string
	// MaxOutput caps a tool result in bytes (head and tail kept; 0:
	// uncapped): keel's tool_output_cap.
	MaxOutput int
	// StderrMax is how many bytes of each server's stderr are kept.
	StderrMax int
	// Notify receives one-line notices: a server that could not start or
	// stopped. It is called from background goroutines; nil drops them.
	Notify func(text string)
	// HTTPClient carries HTTP servers' requests; nil is a default client.
	HTTPClient *http.Client
	// Version is keel's, sent as the client's version.
	Version string
	// Command, when set, makes a stdio server's command from its argv
	// (keel's sandbox helper, which kills everything the server started
	// when it stops or keel dies); nil runs it directly.
	Command func(argv []string) (*exec.Cmd, error)
	// TokenFile is the 0600 file of OAuth sign-ins (keel mcp login);
	// "" leaves HTTP servers without OAuth.
	TokenFile string
}

func (o Options) withDefaults() Options {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.StderrMax <= 0 {
		o.StderrMax = DefaultStderrMax
	}
	if o.Notify == nil {
		o.Notify = func(string) {}
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	return o
}

// validName is what a server name may be: it becomes part of tool names
// the model sees, split at "__".
var validName = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]|_[A-Za-z0-9-])*$`)

// CheckName says what is wrong with a server name, or "" when it is fine.
func CheckName(name string) string {
	if len(name) > 32 || !validName.MatchString(name) {
		return fmt.Sprintf("the server name %q must be 1 to 32 letters, digits, - or single _ (it becomes part of the tool names mcp__NAME__TOOL)", name)
	}
	return ""
}

// problem is what makes the configuration unusable, or "".
func (c ServerConfig) problem() string {
	switch {
	case c.Problem != "":
		return c.Problem
	case CheckName(c.Name) != "":
		return CheckName(c.Name)
	case c.Command == "" && c.URL == "":
		return "set command (a stdio server) or url (a streamable HTTP server)"
	case c.Command != "" && c.URL != "":
		return "set command or url, not both"
	}
	return ""
}

// Transport is "stdio" or "http".
func (c ServerConfig) Transport() string {
	if c.URL != "" {
		return "http"
	}
	return "stdio"
}

// within is ctx bounded by d; d <= 0 is no bound.
func within(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}
