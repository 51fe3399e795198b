package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools/sandbox"
)

// sandboxRunner is how run_command starts commands: through the helper
// (it kills what a command leaves behind), or, for the commands keel runs
// without asking, from a confined thread of keel's own where the kernel
// allows it (sandbox.InProcess). Those get the read-only sandbox; approved
// ones a writable
// workspace whose hooks, git config, .keel/ and AGENTS.md stay
// read-only, confined by Landlock unless sandbox.mode = "off". Where the
// kernel cannot confine, "auto" runs approved commands unconfined with a
// notice (and asks before every command), "on" refuses them.
func sandboxRunner(cfg *config.Config, root string) (r *sandbox.Runner, notice string) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Sprintf("commands run without the sandbox, and every command asks: keel cannot find its own binary (%v)", err)
	}
	r = &sandbox.Runner{Exe: exe}
	r.Spec.Protect = sandbox.Protected(root, cwdOr(root))
	r.Spec.NoNetwork = !cfg.Sandbox.Network
	if cfg.Sandbox.Mode == config.SandboxOff {
		return r, ""
	}
	if err := sandbox.Check(); err != nil {
		if cfg.Sandbox.Mode == config.SandboxOn {
			r.Refuse = fmt.Sprintf("sandbox.mode = \"on\" but %v; set it to \"auto\" or \"off\" to run commands unconfined", err)
			return r, "commands will not run: " + r.Refuse
		}
		return r, fmt.Sprintf("commands run without the sandbox, and every command asks: %v (sandbox.mode = \"off\" silences this)", err)
	}
	r.Spec.Landlock = true
	r.Spec.Writable = sandbox.Writable(root, cfg.Sandbox.Writable, os.Getenv)
	if err := sandbox.CheckReadOnly(); err != nil {
		return r, fmt.Sprintf("every command asks before it runs: %v", err)
	}
	ro := sandbox.ReadOnly(root, cfg.Sandbox.Readable, os.Getenv)
	r.ReadOnlySpec = &ro
	go sandbox.InProcess() // its probe, off the start's path: /status and the first command want it
	return r, ""
}

// cwdOr is the working directory, or dir when it cannot be known.
func cwdOr(dir string) string {
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return dir
}

// unconfined says why no command may run without asking ("" when the
// read-only sandbox confines them), for the permission policy.
func unconfined(cfg *config.Config, r *sandbox.Runner) string {
	switch {
	case r == nil:
		return "keel cannot find its own binary to run the sandbox"
	case cfg.Sandbox.Mode == config.SandboxOff:
		return `sandbox.mode = "off"`
	case r.ReadOnlySpec == nil:
		if err := sandbox.CheckReadOnly(); err != nil {
			return err.Error()
		}
		return "the read-only sandbox is unavailable"
	}
	return ""
}

// sandboxStatus is the sandbox line of /status.
func sandboxStatus(cfg *config.Config, r *sandbox.Runner) string {
	if why := unconfined(cfg, r); why != "" {
		approved := "approved commands write only to the workspace, temp dirs and sandbox.writable"
		if r == nil || !r.Spec.Landlock {
			approved = "approved commands run unconfined"
		}
		return "every command asks (" + why + "); " + approved
	}
	var b strings.Builder
	b.WriteString("commands run without asking only read (" + sandbox.ReadOnlyFeatures() + "; " + startedBy() + "); approved commands write the workspace, temp dirs and sandbox.writable (")
	b.WriteString(strings.Join(cfg.Sandbox.Writable, ", ") + ")")
	if sandbox.MountNamespaces() == nil {
		b.WriteString(", never .git/hooks, .git/config, .keel/ or AGENTS.md")
	} else {
		b.WriteString("; .git/hooks, .git/config, .keel/ and AGENTS.md are put back afterwards (no mount namespace here)")
	}
	if !cfg.Sandbox.Network {
		b.WriteString(", without network (sandbox.network = false)")
	}
	return b.String()
}

// startedBy says how commands that run without asking start: from a
// confined thread of keel, or through the helper and why.
func startedBy() string {
	if err := sandbox.InProcess(); err != nil {
		return "started by a helper, as " + err.Error()
	}
	return "started from a confined thread of keel"
}

// childEnv is the environment commands inherit: keel's own, without
// variables whose names mark a secret (config.SecretEnvName) unless
// permissions.env_passthrough names them.
func childEnv(cfg *config.Config, environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if config.SecretEnvName(name) && !slices.Contains(cfg.Permissions.EnvPassthrough, name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}
