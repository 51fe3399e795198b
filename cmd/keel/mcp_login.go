package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/internal/termtext"
	"github.com/keel-dev/keel/tools/mcp"
)

// loginWait bounds how long keel mcp login waits for the browser's
// redirect.
const loginWait = 5 * time.Minute

func (a *app) mcpLoginCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "login NAME",
		Short: "sign in to an HTTP MCP server that asks for OAuth (opens the browser)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, s, err := a.mcpURLServer(cmd, args[0])
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), loginWait)
			defer cancel()
			opts := mcp.Options{TokenFile: cfg.MCPTokenPath(), Version: version}
			n, err := mcp.Login(ctx, s, opts, a.openBrowser(s.Name, childEnv(cfg, os.Environ())))
			if err != nil {
				return fmt.Errorf("signing in to %s: %w", s.Name, err)
			}
			_, err = fmt.Fprintf(a.stdout, "signed in to %s (%d tools); the tokens are in %s\n", s.Name, n, opts.TokenFile)
			return err
		},
	}
}

func (a *app) mcpLogoutCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "logout NAME",
		Short: "forget the OAuth sign-in to an HTTP MCP server",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, s, err := a.mcpURLServer(cmd, args[0])
			if err != nil {
				return err
			}
			had, err := mcp.Logout(cfg.MCPTokenPath(), s.URL)
			switch {
			case err != nil:
				return err
			case !had:
				_, err = fmt.Fprintf(a.stdout, "%s had no sign-in\n", s.Name)
			default:
				_, err = fmt.Fprintf(a.stdout, "signed out of %s\n", s.Name)
			}
			return err
		},
	}
}

// mcpURLServer is the configured HTTP server NAME.
func (a *app) mcpURLServer(cmd *cobra.Command, name string) (*config.Config, mcp.ServerConfig, error) {
	cfg, err := a.loadConfig(cmd)
	if err != nil {
		return nil, mcp.ServerConfig{}, err
	}
	for _, s := range mcpServers(cfg) {
		switch {
		case s.Name != name:
		case s.Problem != "":
			return nil, s, usageError(fmt.Errorf("[mcp.servers.%s] cannot be used: %s", name, s.Problem))
		case s.URL == "":
			return nil, s, usageError(fmt.Errorf("%s runs a command, not a URL: only HTTP servers sign in", name))
		default:
			return cfg, s, nil
		}
	}
	return nil, mcp.ServerConfig{}, usageError(errors.New("no MCP server named " + name + " in the configuration (keel mcp list shows them)"))
}

// openBrowser prints the authorization URL and opens it in the browser
// when there is one ($BROWSER, else the desktop's opener when a display
// is set), with run_command's environment (no secrets); headless, the
// printed URL is the way.
func (a *app) openBrowser(name string, env []string) func(string) {
	return func(u string) {
		fmt.Fprintf(a.stderr, "keel: to sign in to %s, open this URL (keel waits for its redirect to 127.0.0.1):\n  %s\n",
			name, termtext.Sanitize(u))
		if cmd := browserCommand(u); cmd != nil {
			cmd.Env = env
			if err := cmd.Start(); err == nil {
				go cmd.Wait()
			}
		}
	}
}

// browserCommand is the command that opens u, or nil when there is none.
func browserCommand(u string) *exec.Cmd {
	if b := os.Getenv("BROWSER"); b != "" {
		return exec.Command(b, u)
	}
	switch {
	case runtime.GOOS == "darwin":
		return exec.Command("open", u)
	case os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "":
		return nil
	}
	if p, err := exec.LookPath("xdg-open"); err == nil {
		return exec.Command(p, u)
	}
	return nil
}
