package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/telemetry"
	"github.com/keel-dev/keel/cmd/keel/keellog"
	"github.com/keel-dev/keel/internal/termtext"
	"github.com/keel-dev/keel/tools"
)

// logCommand is `keel log`: the datalog's read side.
func (a *app) logCommand() *cobra.Command {
	open := func(readOnly bool) (*datalog.DB, error) { return a.openDatalogAt(a.current, readOnly) }
	cmd := keellog.NewLogCommand(open, a.stdin, a.otlpSender)
	cmd.AddCommand(keellog.NewSearchCommand(open, a.workspaceRoot))
	return cmd
}

// otlpSender is keel log export --otlp's sender: [telemetry] and the
// OTEL_EXPORTER_OTLP_* variables decide where it sends and whether
// content goes; it waits for the collector rather than drop a span.
func (a *app) otlpSender() (keellog.OTLP, error) {
	cfg, err := a.loadConfig(a.current)
	if err != nil {
		return nil, err
	}
	opts := telemetryOptions(cfg, nil) // stored text is redacted already; this redacts it again
	opts.Blocking = true
	opts.Warn = stderrNotifier(a.stderr)
	exp, err := telemetry.StartTraces(context.Background(), opts)
	if err != nil {
		return nil, usageError(err)
	}
	return exp, nil
}

// openDatalogAt opens the configured datalog for a command that needs it.
func (a *app) openDatalogAt(cmd *cobra.Command, readOnly bool) (*datalog.DB, error) {
	cfg, err := a.loadConfig(cmd)
	if err != nil {
		return nil, err
	}
	path := cfg.DatalogPath()
	if path == "" {
		return nil, usageError(errors.New("no datalog path: set HOME, XDG_DATA_HOME, [datalog] path or --datalog"))
	}
	if _, err := os.Stat(path); readOnly && errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("there is no datalog at %s yet: run a task first", path)
	}
	return openDatalogPath(path, readOnly)
}

// undoCommand is `keel undo`: restore the files the last task changed.
func (a *app) undoCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "undo",
		Short: "restore the files changed by the last task of this project's latest session",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := a.openDatalogAt(cmd, false)
			if err != nil {
				return err
			}
			defer db.Close()
			cwd, err := a.workDir()
			if err != nil {
				return err
			}
			ws, err := tools.NewWorkspace(cwd)
			if err != nil {
				return err
			}
			msg, err := undoLastTask(cmd.Context(), db, ws.Root(), a.flags.resume)
			if err != nil {
				return err
			}
			fmt.Fprintln(a.stdout, termtext.Sanitize(msg)) // it names the files, which the model chose
			return nil
		},
	}
}
