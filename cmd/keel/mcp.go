package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/internal/termtext"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/tools/mcp"
	"github.com/keel-dev/keel/tools/sandbox"
	"github.com/keel-dev/keel/ui"
)

// mcpStderrLines is how many of a server's last stderr lines /mcp and
// keel mcp list show.
const mcpStderrLines = 5

// addMCPTools appends the MCP servers' tool group to toolset and returns
// its manager, not started yet (startMCP starts it once the session is
// built). The group is there even without servers, so permission rules
// naming MCP tools always parse.
func addMCPTools(toolset *[]tools.Tool, cfg *config.Config, root string, notify func(string)) *mcp.Manager {
	m := newMCPManager(cfg, root, notify)
	*toolset = append(*toolset, m)
	return m
}

// newMCPManager maps the configuration onto the MCP manager: servers run
// in the workspace with the environment run_command gets (no secret
// variables unless env_passthrough or the server's own env names them);
// their results are capped at tool_output_cap. Notices are sanitised.
func newMCPManager(cfg *config.Config, root string, notify func(string)) *mcp.Manager {
	if notify == nil {
		notify = func(string) {}
	}
	return mcp.New(mcpServers(cfg), mcp.Options{Env: childEnv(cfg, os.Environ()), Dir: root, MaxOutput: cfg.ToolOutputCap,
		Notify: func(s string) { notify(termtext.Sanitize(s)) }, Version: version, Command: reapedCommand,
		TokenFile: cfg.MCPTokenPath()})
}

// mcpServers maps the configured servers onto the manager's.
func mcpServers(cfg *config.Config) []mcp.ServerConfig {
	var servers []mcp.ServerConfig
	for _, s := range cfg.MCPServers() {
		servers = append(servers, mcp.ServerConfig{Name: s.Name, Command: s.Command, Args: s.Args, Env: s.Env,
			URL: s.URL, Headers: s.Headers, StartTimeout: s.StartupTimeout, CallTimeout: s.CallTimeout,
			TrustReadOnly: s.TrustReadOnly, Problem: s.Problem})
	}
	return servers
}

// reapedCommand starts a stdio MCP server through keel's sandbox helper,
// unconfined (a server is the user's own program and may keep state
// anywhere) but reaped: whatever it starts dies with it or with keel.
func reapedCommand(argv []string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return (&sandbox.Runner{Exe: exe}).Command(context.Background(), argv)
}

// stderrNotifier prints notices on w as "keel: …" lines, one at a time
// (they come from the servers' goroutines): headless keel's notices.
func stderrNotifier(w io.Writer) func(string) {
	var mu sync.Mutex
	return func(s string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "keel: %s\n", s)
	}
}

// chanNotifier sends notices to ch without ever blocking a server's
// goroutine (a full channel drops the notice; /mcp still shows the state).
func chanNotifier(ch chan<- string) func(string) {
	return func(s string) {
		select {
		case ch <- s:
		default:
		}
	}
}

// mcpReport is the servers' state, tools and stderr as sanitised text.
func mcpReport(m *mcp.Manager) string {
	return termtext.Sanitize(mcp.Report(m.Status(mcpStderrLines)))
}

func (a *app) mcpCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "MCP servers: keel mcp list, add, remove, login, logout",
		Args:  cobra.NoArgs,
		// runnable, so that its Args run: "keel mcp bogus" is a usage error, not help and exit 0
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "start the configured MCP servers, then list their state, tools and last stderr lines",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.loadConfig(cmd)
			if err != nil {
				return err
			}
			return a.listMCP(cmd.Context(), cfg)
		},
	})
	cmd.AddCommand(a.mcpAddCommand(), a.mcpRemoveCommand(), a.mcpLoginCommand(), a.mcpLogoutCommand())
	return cmd
}

// listMCP starts every server, waits for each start to end (bounded by
// its startup_timeout) and prints the report. A server that failed (or
// whose configuration cannot be used) makes it exit 1, its error printed
// once, in the report.
func (a *app) listMCP(ctx context.Context, cfg *config.Config) error {
	cwd, err := a.workDir()
	if err != nil {
		return err
	}
	ws, err := tools.NewWorkspace(cwd)
	if err != nil {
		return usageError(fmt.Errorf("the working directory %s cannot be used: %w", cwd, err))
	}
	m := newMCPManager(cfg, ws.Root(), nil)
	defer m.Close()
	m.Start()
	m.WaitStarted(ctx)
	sts := m.Status(mcpStderrLines)
	if _, err := fmt.Fprintln(a.stdout, termtext.Sanitize(mcp.Report(sts))); err != nil {
		return err
	}
	var failed []string
	for _, st := range sts {
		if st.State != mcp.StateReady {
			failed = append(failed, st.Name)
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(a.stderr, "keel: %d of %d MCP servers are not ready: %s\n", len(failed), len(sts), strings.Join(failed, ", "))
		return &exitError{code: exitFailed}
	}
	return nil
}

// mcpNotifier is where a session's MCP notices go: the setup's (the
// TUI's), else stderr.
func (a *app) mcpNotifier(setup sessionSetup) func(string) {
	if setup.notify != nil {
		return setup.notify
	}
	return stderrNotifier(a.stderr)
}

// mcpPromptCommands offers the servers' prompts to the TUI as
// /SERVER:PROMPT commands, each described with how to give its arguments.
func mcpPromptCommands(m *mcp.Manager) (func() []ui.MCPPrompt, func(context.Context, string, string) (string, []tools.Image, error)) {
	list := func() []ui.MCPPrompt {
		var out []ui.MCPPrompt
		for _, p := range m.Prompts() {
			desc := p.Usage()
			if p.Description != "" {
				desc = p.Description + " — " + desc
			}
			out = append(out, ui.MCPPrompt{Name: "/" + p.Command, Desc: desc})
		}
		return out
	}
	run := func(ctx context.Context, command, args string) (string, []tools.Image, error) {
		pt, err := m.GetPrompt(ctx, command, args)
		return pt.Text, pt.Images, err
	}
	return list, run
}
