package main

import (
	"io"
	"time"

	"github.com/spf13/cobra"
)

// app holds the process's streams and the parsed global flags; commands
// read them instead of globals.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	flags  globalFlags
	// warnings are the configuration's, kept for the TUI (printed on
	// stderr before it takes the screen).
	warnings []string
	// current is the command being executed, whose flag set holds the
	// persistent flags the user set (set in PersistentPreRun).
	current *cobra.Command
	root    *cobra.Command
	// tel is the process's telemetry exporter, once a session starts it.
	tel processTelemetry
	// evalLessons is keel eval's lessons datalog (evallessons.go).
	evalLessons lessonStore
	// resumedElsewhere says that the session being resumed was logged in
	// another project; buildSession hands it to the session's notices.
	resumedElsewhere string
}

// globalFlags are the flags every command accepts (persistent on root).
type globalFlags struct {
	prompt            string
	reflectionCadence int
	maxTurns          int
	maxToolCalls      int
	maxDuration       time.Duration
	model             string
	provider          string
	configFile        string
	yolo              bool
	outputFormat      string
	continueLast      bool
	resume            string
	cwd               string
	allow             []string
	datalogPath       string
	confirmPlan       bool
	demo              bool
	verbose           bool
	partialMessages   bool
	// promptArg is the prompt given as an argument (keel -p "text" or
	// keel --print --output-format json "text"), set by runMain.
	promptArg *string
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr}
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "keel",
		Short: "keel — a terminal coding assistant with a plan, checkpoints and a datalog",
		Long: `keel is a terminal coding assistant. It streams tool calls from any
OpenAI-compatible endpoint, runs them inside your project, keeps a plan you can
see, steps in with checkpoints when a long task drifts, and logs every round
to SQLite so a session can be resumed, browsed and analysed.

Run it with no arguments for the terminal UI, or with -p for headless mode.`,
		Example: `  keel                                   start the terminal UI
  keel -p "fix the failing test"         run one task headless
  echo "explain main.go" | keel -p -     read the prompt from stdin
  keel -p "..." --output-format json     one JSON object with the result
  keel --reflection-cadence 5            a checkpoint every 5 tool calls
  keel -c                                continue the last session here
  keel log                               browse the datalog`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          a.promptArgs,
		RunE:          a.runMain,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			a.current = cmd
		},
	}
	a.root = root
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetFlagErrorFunc(flagError)
	a.defineFlags(root)
	root.SetUsageTemplate(root.UsageTemplate() + "\n" + exitCodesHelp + "\n")
	root.AddCommand(a.versionCommand(), a.configCommand(), a.logCommand(), a.undoCommand(), a.trustCommand(), a.evalCommand(), a.mcpCommand(), a.acpCommand())
	strictBuiltins(root)
	markArgErrors(root)
	return root
}

func (a *app) defineFlags(root *cobra.Command) {
	f := root.PersistentFlags()
	g := &a.flags
	f.StringVarP(&g.prompt, "prompt", "p", "", "run one task headless with this prompt (\"-\" or none reads it from stdin)")
	f.StringVar(&g.prompt, "print", "", "the same as -p/--prompt")
	for _, name := range []string{"prompt", "print"} {
		// -p takes the prompt as its value or as the argument after the
		// flags (keel -p --output-format json "text"); alone it reads stdin.
		f.Lookup(name).NoOptDefVal = "-"
	}
	f.IntVar(&g.reflectionCadence, "reflection-cadence", 0, "a reflection checkpoint every N tool calls (0 disables; default from config: 10)")
	f.IntVar(&g.maxTurns, "max-turns", 0, "stop a task after N LLM rounds (0 = no cap; default from config: 100)")
	f.IntVar(&g.maxToolCalls, "max-tool-calls", 0, "stop a task after N tool calls (default from config: 500)")
	f.DurationVar(&g.maxDuration, "max-duration", 0, "stop a task after this much wall-clock time, e.g. 10m (0 = no limit), with a partial result")
	f.StringVar(&g.model, "model", "", "model name to use")
	f.StringVar(&g.provider, "provider", "", "provider name from config (openai, ollama, or a [providers.NAME] table)")
	f.StringVar(&g.configFile, "config", "", "use only this config file")
	f.BoolVar(&g.yolo, "yolo", false, "allow every tool call without asking, except writes into .git/ and writes outside the workspace")
	f.StringVar(&g.outputFormat, "output-format", "text", "headless output: text, json or stream-json")
	f.BoolVarP(&g.continueLast, "continue", "c", false, "continue the most recent session of this project")
	f.StringVar(&g.resume, "resume", "", "continue the session with this id (a unique prefix is enough)")
	f.StringVar(&g.cwd, "cwd", "", "run as if started in this directory")
	f.StringArrayVar(&g.allow, "allow", nil, "allow a tool without asking, TOOL or TOOL:PATTERN (repeatable), e.g. --allow 'run_command:go test *'")
	f.StringVar(&g.datalogPath, "datalog", "", "path of the datalog database")
	f.BoolVar(&g.confirmPlan, "confirm-plan", false, "show the first plan with side effects for approval before it runs")
	f.BoolVar(&g.demo, "demo", false, "start the scripted demo (no API key needed)")
	f.BoolVar(&g.verbose, "verbose", false, "accepted for scripts written for other assistants: keel's json and stream-json are always complete")
	f.BoolVar(&g.partialMessages, "include-partial-messages", false, "stream-json: also stream the answer's text as it comes (stream_event lines)")
}

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print keel's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.Printf("keel %s\n", version)
			return nil
		},
	}
}
