package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/demo"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui"
	"github.com/keel-dev/keel/ui/dialog"
	"github.com/keel-dev/keel/ui/statusbar"
)

// demoCadence is the demo's reflection cadence: short, so checkpoints
// show within the minute the story takes. --reflection-cadence wins.
const demoCadence = 3

// runDemo is `keel --demo`: a real session, the real tools, the datalog
// and the TUI (or headless with -p) on a temporary copy of the bundled
// example project, driven by the scripted demo model instead of an LLM.
// The copy is removed afterwards.
func (a *app) runDemo(cmd *cobra.Command, cfg *config.Config) error {
	tmp, err := os.MkdirTemp("", "keel-demo-")
	if err != nil {
		return fmt.Errorf("create the demo's temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "greet")
	if err := demo.Extract(dir); err != nil {
		return err
	}
	a.flags.cwd = dir
	a.flags.resume, a.flags.continueLast = "", false // the demo always starts fresh
	if !cmd.Flags().Changed("reflection-cadence") {
		cfg.ReflectionCadence = demoCadence
	}
	if headlessRequested(cmd) {
		return a.runHeadless(cmd, cfg, a.buildDemoSession) // headless: the demo policy allows its edit
	}
	return a.runDemoTUI(cmd.Context(), cfg)
}

// runDemoTUI runs the demo in the terminal UI, labelled as the demo model.
func (a *app) runDemoTUI(ctx context.Context, cfg *config.Config) error {
	bridge := dialog.NewBridge()
	b, err := a.buildDemoSession(ctx, cfg, sessionSetup{gate: bridge, asker: bridge, confirmer: bridge})
	if err != nil {
		return err
	}
	defer b.close(a.stderr)
	opts := a.uiOptions(b, bridge)
	opts.ProviderLabel, opts.Model, opts.ContextWindow = demo.Name, demo.Model, demo.ContextWindow
	opts.Cadence, opts.Demo = cfg.ReflectionCadence, true
	opts.Banner = startBanner(b.env, statusbar.DemoLabel, os.Getenv("HOME")) // the name the status bar shows
	opts.Resume = func(string) tea.Cmd {
		return func() tea.Msg {
			return ui.ErrorMsg{Text: "the demo cannot resume other sessions: quit it and run keel in your project, then /resume"}
		}
	}
	if err := ui.Run(ctx, opts); err != nil {
		return err
	}
	if line := demoExitLine(b); line != "" {
		fmt.Fprintln(a.stdout, line)
	}
	return nil
}

// demoExitLine is what the demo leaves in the terminal: where its session
// was logged (its project was a temporary copy, now gone, so it cannot be
// resumed) and how to start on real code. "" when nothing was asked.
func demoExitLine(b *builtSession) string {
	id := b.session.ID()
	if id == "" || len(b.session.History()) == 0 {
		return ""
	}
	short := datalog.ShortID(id)
	return fmt.Sprintf("keel: demo session %s logged; see it with keel log show %s\n"+
		"To use keel on your code, set OPENAI_API_KEY (or run keel config init) and start keel in your project.", short, short)
}

// buildDemoSession is buildSession with the scripted provider and the
// demo's own permission rules, on the extracted project.
func (a *app) buildDemoSession(ctx context.Context, cfg *config.Config, setup sessionSetup) (*builtSession, error) {
	if _, _, err := a.demoWorkspace(); err != nil {
		return nil, err
	}
	prov := demo.NewProvider()
	if setup.headless {
		prov = &demo.Provider{Headless: true} // no one watches the stream
	}
	setup.model = &modelChoice{provider: prov, name: demo.Name, model: demo.Model, window: demo.ContextWindow}
	pol := a.demoPolicy(setup.headless)
	setup.policy = &pol
	return a.buildSession(ctx, cfg, setup)
}

// demoWorkspace is the extracted project as the workspace. A temporary
// directory inside a git repository would make that repository the
// workspace, and the story's paths would miss: say so instead.
func (a *app) demoWorkspace() (string, *tools.Workspace, error) {
	cwd, err := a.workDir()
	if err != nil {
		return "", nil, err
	}
	ws, err := tools.NewWorkspace(cwd)
	if err != nil {
		return "", nil, fmt.Errorf("the demo project %s cannot be used: %w", cwd, err)
	}
	if real, err := filepath.EvalSymlinks(cwd); err != nil || real != ws.Root() {
		return "", nil, usageError(fmt.Errorf("the demo's temporary directory %s is inside the git repository %s: set TMPDIR to a directory outside it", cwd, ws.Root()))
	}
	return cwd, ws, nil
}

// demoPolicy is the demo's permission rules, independent of the user's
// config (the demo works on its own throwaway copy): the test command
// runs without asking; the edit asks in the TUI, so the permission dialog
// shows, and is allowed headless, where nobody could answer. --allow and
// --yolo still apply.
func (a *app) demoPolicy(headless bool) tools.PolicyOptions {
	allow := []string{"run_command:go test *"}
	if headless {
		allow = append(allow, tools.NameEditFile)
	}
	return tools.PolicyOptions{Allow: append(allow, a.flags.allow...), Yolo: a.flags.yolo}
}
