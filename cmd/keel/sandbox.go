package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools/sandbox"
)

// sandboxRunner is how run_command starts commands: always through the
// helper (it kills what a command leaves behind), confined by Landlock
// unless sandbox = "off". Where the kernel cannot confine, "auto" runs
// commands unconfined with a notice and "on" refuses them.
func sandboxRunner(cfg *config.Config, root string) (r *sandbox.Runner, notice string) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Sprintf("commands run without the sandbox: keel cannot find its own binary (%v)", err)
	}
	r = &sandbox.Runner{Exe: exe}
	if cfg.Sandbox == config.SandboxOff {
		return r, ""
	}
	if err := sandbox.Check(); err != nil {
		if cfg.Sandbox == config.SandboxOn {
			r.Refuse = fmt.Sprintf("sandbox = \"on\" but %v; set sandbox = \"auto\" or \"off\" to run commands unconfined", err)
			return r, "commands will not run: " + r.Refuse
		}
		return r, fmt.Sprintf("commands run without the sandbox: %v (sandbox = \"off\" silences this)", err)
	}
	r.Spec = sandbox.Spec{Landlock: true, Writable: sandbox.Writable(root, cfg.SandboxWritable, os.Getenv)}
	return r, ""
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
