package main

import (
	"fmt"
	"os"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/recall"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
)

// addRecallTool appends the recall tool to toolset and returns it, so the
// running session can be named once it is known (Tool.Exclude). It reads
// the configured datalog, opened read-only for each search; without a
// datalog path it says there is nothing to search.
func addRecallTool(toolset *[]tools.Tool, cfg *config.Config, root string) *recall.Tool {
	opts := recall.Options{Root: root}
	if path := cfg.DatalogPath(); path != "" {
		opts.Open = func() (*datalog.DB, error) {
			return datalog.Open(path, datalog.Options{ReadOnly: true, Environ: os.Environ()})
		}
	}
	t := recall.New(opts)
	*toolset = append(*toolset, t)
	return t
}

// workspaceRoot is the project root keel records for the working
// directory (--cwd), as a session would: the git root, else the directory.
func (a *app) workspaceRoot() (string, error) {
	cwd, err := a.workDir()
	if err != nil {
		return "", err
	}
	ws, err := tools.NewWorkspace(cwd)
	if err != nil {
		return "", fmt.Errorf("the working directory %s cannot be used: %w", cwd, err)
	}
	return ws.Root(), nil
}
