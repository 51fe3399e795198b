package tools

import "github.com/keel-dev/keel/tools/sandbox"

// Options configures the tools. They come in as plain values so this
// package never depends on config or agent.
type Options struct {
	// SecretEnvNames are environment variables removed from run_command's
	// environment (keel's own API keys).
	SecretEnvNames []string
	// SecretValues removes any variable whose value equals one of them,
	// whatever its name (a key exported under another name).
	SecretValues []string
	// Env is the base environment of run_command; nil means os.Environ().
	Env []string
	// Sandbox runs commands through keel's confining helper; nil runs
	// them directly (their process group is still killed at the end).
	Sandbox *sandbox.Runner
	// MaxCommandOutput caps run_command output in bytes (head and tail
	// kept); 0 means 32 KiB.
	MaxCommandOutput int
	// Jobs, when set, lets run_command start background jobs and adds
	// job_output and job_stop; the session stops them when it ends.
	Jobs *Jobs
}

// New returns every tool, bound to ws, in the order the model sees them.
func New(ws *Workspace, opts Options) []Tool {
	set := []Tool{
		newReadFile(ws),
		newListDir(ws),
		newGlob(ws),
		newGrep(ws),
		newWriteFile(ws),
		newEditFile(ws),
		newRunCommand(ws, opts),
	}
	if opts.Jobs != nil {
		set = append(set, newJobOutput(opts.Jobs), newJobStop(opts.Jobs))
	}
	return set
}

// Names of the tools, for rules and prompts.
const (
	NameReadFile   = "read_file"
	NameListDir    = "list_dir"
	NameGlob       = "glob"
	NameGrep       = "grep"
	NameWriteFile  = "write_file"
	NameEditFile   = "edit_file"
	NameRunCommand = "run_command"
)
