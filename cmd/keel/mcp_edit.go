package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/config"
)

// mcpEditFile is the file keel mcp add and remove edit: --config's, else
// the user's configuration.
func (a *app) mcpEditFile() (string, error) {
	if a.flags.configFile != "" {
		return a.flags.configFile, nil
	}
	if p := config.UserConfigPath(nil); p != "" {
		return p, nil
	}
	return "", usageError(errors.New("no user configuration file: set HOME or XDG_CONFIG_HOME, or pass --config FILE"))
}

// mcpAddCommand is keel mcp add NAME -- CMD ARGS… or keel mcp add NAME
// --url URL, as claude mcp add takes them.
func (a *app) mcpAddCommand() *cobra.Command {
	var url string
	var env, headers []string
	cmd := &cobra.Command{
		Use:   "add NAME [--url URL | -- COMMAND [ARGS...]]",
		Short: "add an MCP server to the user configuration",
		Example: "  keel mcp add fs -- npx -y @modelcontextprotocol/server-filesystem .\n" +
			"  keel mcp add docs --url https://example.com/mcp -H 'Authorization: Bearer $TOKEN'",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := mcpServerFromArgs(cmd, args, url, env, headers)
			if err != nil {
				return usageError(err)
			}
			path, err := a.mcpEditFile()
			if err != nil {
				return err
			}
			if err := config.AddMCPServer(path, s); err != nil {
				return usageError(err)
			}
			_, err = fmt.Fprintf(a.stdout, "added the MCP server %s to %s (keel mcp list starts it)\n", s.Name, path)
			return err
		},
	}
	cmd.Flags().StringVar(&url, "url", "", "a streamable HTTP server's URL")
	cmd.Flags().StringArrayVarP(&env, "env", "e", nil, "KEY=VALUE for a stdio server's environment (repeatable)")
	cmd.Flags().StringArrayVarP(&headers, "header", "H", nil, `"Name: value" sent to an HTTP server (repeatable)`)
	return cmd
}

// mcpServerFromArgs reads the server from add's arguments: NAME, then
// the command after --, or --url.
func mcpServerFromArgs(cmd *cobra.Command, args []string, url string, env, headers []string) (config.MCPServer, error) {
	s := config.MCPServer{Name: args[0], URL: url}
	dash := cmd.ArgsLenAtDash()
	switch {
	case dash > 1 || (dash < 0 && len(args) > 1):
		return s, fmt.Errorf("put the server's command after --: keel mcp add %s -- %s", args[0], strings.Join(args[1:], " "))
	case dash == 1 && len(args) > 1:
		s.Command, s.Args = args[1], args[2:]
	}
	if s.Command != "" && url != "" {
		return s, errors.New("give a command after -- or --url, not both")
	}
	if s.Command == "" && url == "" {
		return s, fmt.Errorf("say how to reach the server: keel mcp add %s -- COMMAND [ARGS...], or keel mcp add %s --url URL", args[0], args[0])
	}
	var err error
	if s.Env, err = pairs(env, "=", "--env wants KEY=VALUE"); err != nil {
		return s, err
	}
	s.Headers, err = pairs(headers, ":", `--header wants "Name: value"`)
	if s.Command != "" && len(s.Headers) > 0 || url != "" && len(s.Env) > 0 {
		return s, errors.New("--env is for a command's server, --header for a URL's")
	}
	return s, err
}

// pairs splits each KEY<sep>VALUE into a map.
func pairs(list []string, sep, msg string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, p := range list {
		k, v, ok := strings.Cut(p, sep)
		if k = strings.TrimSpace(k); !ok || k == "" {
			return nil, fmt.Errorf("%s, not %q", msg, p)
		}
		m[k] = strings.TrimSpace(v)
	}
	return m, nil
}

func (a *app) mcpRemoveCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "remove NAME",
		Short: "remove an MCP server from the user configuration",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			path, err := a.mcpEditFile()
			if err != nil {
				return err
			}
			if err := config.RemoveMCPServer(path, args[0]); err != nil {
				return usageError(err)
			}
			_, err = fmt.Fprintf(a.stdout, "removed the MCP server %s from %s\n", args[0], path)
			return err
		},
	}
}
