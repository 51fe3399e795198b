package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/keel-dev/keel/agent"
)

// startBanner is the TUI's first lines: keel's version, where it runs
// (the working directory, home shortened to ~, and the git branch), the
// model (as the status bar names it: "model openai/gpt-4.1", or the
// demo's label), and the project instructions it read, or that it found none.
func startBanner(env agent.PromptEnv, model, home string) []string {
	where := tildePath(env.Cwd, home)
	if env.GitBranch != "" {
		where += " (" + env.GitBranch + ")"
	}
	return []string{
		fmt.Sprintf("keel %s in %s", version, where),
		fmt.Sprintf("%s · %s", model, instructionsLine(env)),
	}
}

// instructionsLine names the instruction files relative to the workspace.
func instructionsLine(env agent.PromptEnv) string {
	if len(env.Instructions) == 0 {
		return "no AGENTS.md or .keel/instructions.md found"
	}
	names := make([]string, len(env.Instructions))
	for i, in := range env.Instructions {
		names[i] = in.Path
		if rel, err := filepath.Rel(env.Workspace, in.Path); err == nil && !strings.HasPrefix(rel, "..") {
			names[i] = rel
		}
	}
	return "instructions from " + strings.Join(names, ", ")
}

// tildePath shortens a path under home to ~/...
func tildePath(path, home string) string {
	if home == "" || home == "/" {
		return path
	}
	if path == home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + rest
	}
	return path
}
