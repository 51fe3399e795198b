package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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

// undoLastTask restores the last task's file changes in a session (the
// given id, else the project's latest), refusing when a file changed since.
func undoLastTask(ctx context.Context, db *datalog.DB, root, id string) (string, error) {
	if id == "" {
		s, err := db.LatestSession(ctx, root)
		if errors.Is(err, datalog.ErrNotFound) {
			return "", usageError(fmt.Errorf("there is no session in %s to undo; keel undo restores what the last task of this project's latest session changed", root))
		}
		if err != nil {
			return "", err
		}
		id = s.ID
	} else if full, err := db.ResolveID(ctx, id); err == nil {
		id = full
	} else {
		return "", err
	}
	if err := db.CheckLastTask(ctx, root); err != nil {
		return "", err
	}
	changes, err := db.TaskFileChanges(ctx, id)
	if err != nil {
		return "", err
	}
	if len(changes) == 0 {
		return "nothing to undo: the last task changed no files", nil
	}
	restore := make([]tools.FileChange, len(changes))
	ids := make([]int64, len(changes))
	for i, c := range changes {
		restore[i] = tools.FileChange{Path: c.Path, Existed: c.Existed, Before: c.Before, After: c.After, Mode: c.Mode,
			BeforeSHA256: c.BeforeSHA256, AfterSHA256: c.AfterSHA256, ByCommand: c.ByCommand}
		if len(c.Splices) > 0 && json.Unmarshal(c.Splices, &restore[i].Splices) != nil {
			return "", fmt.Errorf("undo refused, nothing restored: the datalog's record of the edit of %s is damaged", c.Path)
		}
		ids[i] = c.ID
	}
	if err := tools.Restore(restore); err != nil {
		return "", fmt.Errorf("undo refused: %w", err)
	}
	if err := db.MarkUndone(ctx, ids); err != nil {
		return "", err
	}
	return undoMessage(restore, root), nil
}

// undoMessage says what undo restored, naming the files, and which files,
// changed by commands, it had to leave as they are.
func undoMessage(changes []tools.FileChange, root string) string {
	var own, left []string
	seen := map[string]bool{}
	for _, c := range changes {
		if seen[c.Path] {
			continue
		}
		seen[c.Path] = true
		rel, err := filepath.Rel(root, c.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = c.Path
		}
		if c.ByCommand {
			left = append(left, rel)
		} else {
			own = append(own, rel)
		}
	}
	var msg string
	switch len(own) {
	case 0:
		msg = "restored no file of the last task"
	case 1:
		msg = "restored " + own[0] + " as it was before the last task"
	default:
		msg = fmt.Sprintf("restored %d files as they were before the last task: %s", len(own), strings.Join(own, ", "))
	}
	if len(left) > 0 {
		msg += fmt.Sprintf("; left as they are, since commands changed them and keel never kept their content: %s (restore them with git)", strings.Join(left, ", "))
	}
	return msg
}
