package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/agentdef"
	"github.com/keel-dev/keel/config"
)

// subagents configures the task tool from [subagents] and the named agents
// in $XDG_CONFIG_HOME/keel/agents and the project's .keel/agents (the
// project's win on a name). A file that cannot be used is left out with a
// notice. A child's prompt is keel's system prompt for its tools, then its
// instructions; an agent file's model is the active provider's with that
// model.
func (a *app) subagents(cfg *config.Config, root string, env agent.PromptEnv) (*agent.Subagents, []string) {
	if cfg.Subagents.MaxParallel <= 0 {
		return nil, nil
	}
	defs, errs := agentdef.Load(filepath.Join(filepath.Dir(config.UserConfigPath(os.Getenv)), "agents"), filepath.Join(root, ".keel", "agents"))
	var notices []string
	for _, err := range errs {
		notices = append(notices, err.Error())
	}
	sub := &agent.Subagents{Defs: defs, MaxParallel: cfg.Subagents.MaxParallel, Tools: cfg.Subagents.Tools,
		Limits: agent.Limits{MaxTurns: cfg.Subagents.MaxTurns, MaxToolCalls: cfg.Subagents.MaxToolCalls}}
	sub.Prompt = func(instructions string, tools []string) string {
		e := env
		e.Tools = append(append([]string(nil), tools...), agent.PlanToolName)
		return agent.SystemPrompt(e) + "\n\nYour role:\n" + instructions
	}
	sub.Model = func(model string) (agent.ChildModel, error) {
		c := *cfg
		c.Model = model
		prov, clients, _, err := a.providerClients(&c)
		if err != nil {
			return agent.ChildModel{}, fmt.Errorf("its model %q: %w", model, err)
		}
		return agent.ChildModel{Provider: &agent.RetryingProvider{Retrier: retrier(&c), Clients: clients}, ProviderName: prov.Name, Model: clients[0].Model(),
			ContextWindow: prov.ContextWindow, Prices: prices(&c, prov)}, nil
	}
	return sub, notices
}
