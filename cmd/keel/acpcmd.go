package main

import (
	"context"
	"errors"
	"path/filepath"
	"sync"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/cmd/keel/acp"
)

// acpCommand is `keel acp`: the Agent Client Protocol on stdin and
// stdout, for editors that run agents (Zed, JetBrains IDEs, Neovim).
func (a *app) acpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "acp",
		Short: "serve editors over the Agent Client Protocol on stdin/stdout",
		Long: `keel acp speaks the Agent Client Protocol (JSON-RPC over stdio), so an editor
such as Zed runs keel as its agent: each editor session is a keel session with
the same tools, permissions, discipline, plan and datalog as the terminal UI.
Permission questions appear in the editor; reads and edits go through the
editor's buffers when it offers them. Nothing but the protocol is written to
stdout; notices go to stderr (the editor's log).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if a.flags.resume != "" || a.flags.continueLast || cmd.Flags().Changed("prompt") {
				return usageError(errors.New("keel acp takes no -p, -c or --resume: the editor starts and loads sessions"))
			}
			return acp.Serve(cmd.Context(), acp.Options{Version: version, Open: a.acpOpener(cmd), Log: a.stderr}, a.stdin, a.stdout)
		},
	}
}

// acpOpener builds the editor's sessions as the TUI's are built, one at a
// time (configuration warnings and the telemetry exporter are shared).
func (a *app) acpOpener(cmd *cobra.Command) func(context.Context, acp.OpenRequest) (*acp.Opened, error) {
	var mu sync.Mutex
	return func(_ context.Context, req acp.OpenRequest) (*acp.Opened, error) {
		mu.Lock()
		defer mu.Unlock()
		if !filepath.IsAbs(req.Cwd) {
			return nil, errors.New("the session's cwd must be an absolute directory")
		}
		cfg, err := a.loadConfigIn(cmd, req.Cwd)
		if err != nil {
			return nil, err
		}
		setup := sessionSetup{gate: req.Gate, asker: req.Asker, confirmer: req.Confirmer, cwd: req.Cwd, resume: req.ResumeID,
			files: req.Files, notify: stderrNotifier(a.stderr)}
		b, err := a.buildSession(cmd.Context(), cfg, setup) // the session outlives the request that made it
		if err != nil {
			return nil, err
		}
		for _, n := range b.notices {
			setup.notify(n)
		}
		return &acp.Opened{Session: b.session, Root: b.root, Close: func() { b.close(a.stderr) }}, nil
	}
}
