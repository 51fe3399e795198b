package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui"
	"github.com/keel-dev/keel/ui/customcmd"
	"github.com/keel-dev/keel/ui/dialog"
	"github.com/keel-dev/keel/ui/editor"
	"github.com/keel-dev/keel/ui/shellcmd"
)

// runTUI starts the terminal UI, and starts it again on the session the
// user asks to resume from the datalog browser.
func (a *app) runTUI(cmd *cobra.Command, cfg *config.Config) error {
	ctx := cmd.Context()
	for {
		err := a.runTUIOnce(ctx, cfg)
		if errors.Is(err, ui.ErrDemoRequested) {
			return a.runDemo(cmd, cfg)
		}
		var rr *ui.ResumeRequest
		if !errors.As(err, &rr) {
			return err
		}
		a.flags.resume, a.flags.continueLast = rr.SessionID, false
	}
}

func (a *app) runTUIOnce(ctx context.Context, cfg *config.Config) error {
	term := ui.ProbeTerminal() // while the session is built
	bridge := dialog.NewBridge()
	notices := make(chan string, 16) // MCP servers' notices, drained by the UI
	tail := &transcriptTail{}
	b, err := a.buildSession(ctx, cfg, sessionSetup{gate: bridge, asker: bridge, confirmer: bridge, recAsker: gateRecordAsker{bridge}, notify: chanNotifier(notices), tail: tail})
	if errors.Is(err, config.ErrNoAPIKey) {
		db := welcomeDatalog(cfg)
		if db != nil {
			defer db.Close()
		}
		return ui.Run(ctx, ui.Options{Bridge: bridge, Mouse: cfg.UI.Mouse, DB: db, ConfigPath: config.UserConfigPath(nil), Terminal: term})
	}
	if err != nil {
		return err
	}
	defer b.close(a.stderr)
	opts := a.uiOptions(b, bridge)
	opts.LateNotices, opts.Terminal = notices, term
	if d, rest := tail.wait(); len(b.session.History()) > 0 {
		opts.Resumed, opts.ResumedRest = d, rest
	}
	if err := ui.Run(ctx, opts); err != nil {
		return err
	}
	a.printTUIExitLine(b)
	return nil
}

// uiOptions describes a built session to the UI, with its hooks.
func (a *app) uiOptions(b *builtSession, bridge *dialog.Bridge) ui.Options {
	prov, _ := b.cfg.ActiveProvider()
	opts := ui.Options{
		Session: b.session, Bridge: bridge, DB: b.db,
		ProviderLabel: prov.Name, Model: prov.Model, ContextWindow: prov.ContextWindow,
		Cadence: b.cfg.ReflectionCadence, Mouse: b.cfg.UI.Mouse, Demo: a.flags.demo,
		Notices:   append(slices.Clone(a.warnings), b.notices...),
		Workspace: b.ws, Shell: shellFor(b), Commands: commandDirs(b.root), HistoryFile: editor.HistoryFile(nil, b.root),
	}
	opts.Status = statusInfo(b, prov)
	opts.Banner = startBanner(b.env, "model "+prov.Name+"/"+prov.Model, os.Getenv("HOME"))
	opts.Compact = func() tea.Cmd {
		s := b.session
		return func() tea.Msg {
			msg, err := s.Compact(context.Background())
			if err != nil {
				return ui.ErrorMsg{Text: err.Error()}
			}
			return ui.NoticeMsg{Text: msg}
		}
	}
	if m := b.mcp; m != nil {
		opts.MCP = func() tea.Cmd {
			return func() tea.Msg { return ui.NoticeMsg{Text: mcpReport(m)} }
		}
		opts.MCPPrompts, opts.RunMCPPrompt = mcpPromptCommands(m)
	}
	opts.SetModel = func(name string) tea.Cmd {
		cfg := *b.cfg
		cfg.Model = name
		return func() tea.Msg {
			_, clients, _, err := a.providerClients(&cfg)
			if err != nil {
				return ui.ErrorMsg{Text: err.Error()}
			}
			b.session.SetProvider(&agent.RetryingProvider{Retrier: retrier(&cfg), Clients: clients}, name)
			return ui.ModelChangedMsg{Model: name}
		}
	}
	if b.db != nil {
		opts.Undo = func() tea.Cmd {
			db, root, id := b.db, b.root, b.session.ID()
			if b.session.Running() {
				return func() tea.Msg {
					return ui.ErrorMsg{Text: "a task is running: let it finish or cancel it with Esc, then /undo"}
				}
			}
			return func() tea.Msg {
				msg, err := undoLastTask(context.Background(), db, root, id)
				if err != nil {
					return ui.ErrorMsg{Text: err.Error()}
				}
				return ui.NoticeMsg{Text: msg}
			}
		}
	}
	return opts
}

// shellFor gives the TUI's !commands the session's run_command and
// permission policy; nil when the session has no run_command.
func shellFor(b *builtSession) *shellcmd.Shell {
	ws, topts := b.ws, b.toolOpts
	return &shellcmd.Shell{OutputCap: b.cfg.ToolOutputCap, Run: func(ctx context.Context, command string) tools.Result {
		return tools.RunUserCommand(ctx, ws, topts, command)
	}}
}

// commandDirs are where custom /commands live: the project's
// .keel/commands and the user's $XDG_CONFIG_HOME/keel/commands.
func commandDirs(root string) customcmd.Dirs {
	d := customcmd.Dirs{Project: filepath.Join(root, ".keel", "commands")}
	if p := config.UserConfigPath(nil); p != "" {
		d.User = filepath.Join(filepath.Dir(p), "commands")
	}
	return d
}

// welcomeDatalog is the datalog for the welcome screen's ctrl+l: opened
// read-only, and only when one exists (the screen creates nothing); nil
// otherwise.
func welcomeDatalog(cfg *config.Config) *datalog.DB {
	path := cfg.DatalogPath()
	if _, err := os.Stat(path); path == "" || err != nil {
		return nil
	}
	db, err := datalog.Open(path, datalog.Options{ReadOnly: true, Environ: os.Environ()})
	if err != nil {
		return nil
	}
	return db
}

// statusInfo is what the TUI's /status shows besides the model and the
// session: the endpoint, workspace, datalog, sandbox and MCP servers.
func statusInfo(b *builtSession, prov config.Provider) ui.StatusInfo {
	info := ui.StatusInfo{BaseURL: prov.BaseURL, Workspace: b.root, MCPServers: len(b.cfg.MCPServers()), Telemetry: telemetryStatus(b.tel),
		Sandbox: sandboxStatus(b.cfg, b.runner)}
	if b.db != nil {
		info.DatalogPath = b.cfg.DatalogPath()
	}
	return info
}
