package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/cmd/keel/headless"
	"github.com/keel-dev/keel/config"
)

// runMain is `keel` itself: headless with -p, else the TUI.
func (a *app) runMain(cmd *cobra.Command, args []string) error {
	if len(args) == 1 {
		a.flags.promptArg = &args[0]
	}
	switch a.flags.outputFormat {
	case headless.FormatText, headless.FormatJSON, headless.FormatStreamJSON:
	default:
		return usageError(fmt.Errorf("--output-format must be text, json or stream-json, not %q", a.flags.outputFormat))
	}
	if a.flags.reflectionCadence < 0 || a.flags.maxTurns < 0 || a.flags.maxToolCalls < 0 {
		return usageError(errors.New("--reflection-cadence, --max-turns and --max-tool-calls take a number of 0 or more"))
	}
	cfg, err := a.loadConfig(cmd)
	if err != nil {
		return err
	}
	if a.flags.demo {
		return a.runDemo(cmd, cfg)
	}
	if headlessRequested(cmd) {
		return a.runHeadless(cmd, cfg, a.buildSession)
	}
	return a.runTUI(cmd, cfg)
}

// sessionBuilder builds a session: buildSession, or the demo's.
type sessionBuilder func(ctx context.Context, cfg *config.Config, setup sessionSetup) (*builtSession, error)

// runHeadless runs one task and maps its stop reason to the exit code.
func (a *app) runHeadless(cmd *cobra.Command, cfg *config.Config, build sessionBuilder) error {
	prompt, err := a.readPrompt()
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	b, err := build(ctx, cfg, sessionSetup{headless: true, gate: agent.DenyGate{}})
	if err != nil {
		return err
	}
	defer b.close(a.stderr)
	for _, n := range b.notices {
		fmt.Fprintf(a.stderr, "keel: %s\n", n)
	}
	h := headless.Headless{Format: a.flags.outputFormat, Stdout: a.stdout, Stderr: a.stderr, PartialMessages: a.flags.partialMessages,
		Session: headless.Session{Cwd: b.env.Cwd, Model: b.model, Provider: b.provider, Version: version, Tools: b.env.Tools,
			MCPServers: mcpServerNames(b.cfg), Yolo: b.cfg.Yolo}}
	st, err := h.Run(ctx, b.session, prompt)
	if err != nil {
		return err
	}
	a.printHeadlessExitLine(b)
	return stopExit(st)
}

// stopExit maps a stopped task to the documented exit code. The result
// was already printed; only the text format repeats the reason on stderr.
func stopExit(st agent.TaskStopped) error {
	switch {
	case st.Reason == agent.StopCompleted:
		return nil
	case st.Reason == agent.StopCancelled:
		return &exitError{code: exitCancelled}
	case st.Reason.Halted():
		return &exitError{code: exitHalted}
	default:
		return &exitError{code: exitFailed}
	}
}

// headlessRequested reports -p or --print.
func headlessRequested(cmd *cobra.Command) bool {
	return cmd.Flags().Changed("prompt") || cmd.Flags().Changed("print")
}

// promptArgs accepts the prompt as the one argument of keel -p; without
// -p keel takes none (cobra's error, which usage.go makes a sentence).
func (a *app) promptArgs(cmd *cobra.Command, args []string) error {
	if !headlessRequested(cmd) || len(args) == 0 {
		return cobra.NoArgs(cmd, args)
	}
	if len(args) > 1 {
		return usageError(fmt.Errorf("keel -p takes one prompt, got %d arguments; quote it: keel -p %q", len(args), strings.Join(args, " ")))
	}
	return nil
}

// mcpServerNames are the configured MCP servers, for stream-json's init.
func mcpServerNames(cfg *config.Config) []string {
	var names []string
	for _, s := range cfg.MCPServers() {
		if s.Problem == "" {
			names = append(names, s.Name)
		}
	}
	return names
}

// readPrompt is -p's text (its value, or the argument after the flags),
// or stdin for "-p -" and a -p without a prompt.
func (a *app) readPrompt() (string, error) {
	p := a.flags.prompt
	if a.flags.promptArg != nil {
		p = *a.flags.promptArg
	}
	if p == "-" {
		data, err := io.ReadAll(a.stdin)
		if err != nil {
			return "", fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		p = string(data)
	}
	if strings.TrimSpace(p) == "" {
		return "", usageError(errors.New("the prompt is empty: pass text to -p, or -p - with the prompt on stdin"))
	}
	return p, nil
}
