// Command keel is a terminal coding assistant: a Bubble Tea interface over a
// disciplined agent loop that streams tool calls from any OpenAI-compatible
// endpoint and logs every round to SQLite. `keel -p` runs it headless.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/keel-dev/keel/tools/sandbox"
)

// version is stamped at build time (make build); unstamped, run reads
// it from the build information (buildVersion).
var version = "dev"

func main() {
	sandbox.Main() // keel started as run_command's helper runs only that
	// A command keel runs must not read keel's environment (API keys).
	_ = sandbox.HideProcess()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: it parses args, runs the command, and
// maps the outcome to an exit code in one place (see exitcode.go).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if path := os.Getenv("KEEL_CPUPROFILE"); path != "" {
		stop := startCPUProfile(path, stderr)
		defer stop()
	}
	if version == "dev" {
		version = buildVersion(debug.ReadBuildInfo())
	}
	app := newApp(stdin, stdout, stderr)
	root := app.rootCommand()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	app.closeTelemetry()
	return app.exitCode(err)
}
