package main

import (
	"github.com/keel-dev/keel/agent/hooks"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
)

// hookRunner makes the configured [[hooks.EVENT]] entries a runner whose
// commands run in the workspace with run_command's environment: keel's
// own without its secrets. nil when none is configured; an unknown event
// or a bad matcher is a usage error naming the entry.
func hookRunner(cfg *config.Config, root string, topts tools.Options) (*hooks.Runner, error) {
	if len(cfg.Hooks) == 0 {
		return nil, nil
	}
	hs := make([]hooks.Hook, 0, len(cfg.Hooks))
	for _, h := range cfg.Hooks {
		hs = append(hs, hooks.Hook{Event: hooks.Event(h.Event), Matcher: h.Matcher, Command: h.Command, Timeout: h.Timeout, Origin: h.Origin()})
	}
	return hooks.New(hs, root, tools.ChildEnv(topts))
}
