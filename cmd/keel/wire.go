package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/tools/mcp"
)

// providerClients builds the active provider's client and its fallbacks.
func (a *app) providerClients(cfg *config.Config) (config.Provider, []*llm.Client, []string, error) {
	primary, err := cfg.ActiveProvider()
	if err != nil {
		return primary, nil, nil, usageError(err)
	}
	if primary.Model == "" {
		return primary, nil, nil, usageError(fmt.Errorf("provider %s has no model: pass --model NAME, or set model in config (keel config init writes one)", primary.Name))
	}
	chain := []config.Provider{primary}
	for _, name := range primary.Fallback {
		fb, err := cfg.Provider(name)
		if err != nil {
			return primary, nil, nil, usageError(err)
		}
		chain = append(chain, fb)
	}
	var clients []*llm.Client
	var secrets []string
	for i, p := range chain {
		key, err := cfg.APIKey(p, os.Getenv)
		if err != nil && i == 0 {
			return primary, nil, nil, usageError(err)
		}
		if key != "" {
			secrets = append(secrets, key)
		}
		clients = append(clients, llm.New(llm.Config{
			Name: p.Name, BaseURL: p.BaseURL, APIKey: key, APIKeyEnv: p.APIKeyEnv, Model: p.Model,
			MaxOutputTokens: p.MaxOutputTokens, IdleTimeout: cfg.StreamIdleTimeout,
		}))
	}
	return primary, clients, secrets, nil
}

// retrier is the retry policy config sets: how long a Retry-After is
// honoured at most.
func retrier(cfg *config.Config) llm.Retrier {
	return llm.Retrier{MaxRateLimitWait: cfg.MaxRetryWait}
}

// openDatalog opens the datalog for writing. A datalog that cannot be
// opened does not stop keel: it says so once and runs without one.
func (a *app) openDatalog(cfg *config.Config, secrets []string) (*datalog.DB, error) {
	db, err := openDatalogFile(cfg, secrets)
	if err != nil {
		fmt.Fprintf(a.stderr, "keel: %v\n", err)
		return nil, err
	}
	return db, nil
}

// namedSecrets are the values the datalog (and telemetry's content)
// redacts besides the environment's: the providers' API keys and the MCP
// servers' credentials, by name.
func namedSecrets(cfg *config.Config, secrets []string) map[string]string {
	named := map[string]string{}
	for i, s := range secrets {
		// A placeholder key such as "x" (local servers take anything)
		// would turn every x in the log into a redaction mark.
		if len(s) >= minSecretLen {
			named[fmt.Sprintf("API_KEY_%d", i+1)] = s
		}
	}
	for i, s := range mcp.SecretValues(mcpServers(cfg), os.Getenv, config.SecretEnvName) {
		if len(s) >= minSecretLen {
			named[fmt.Sprintf("MCP_SECRET_%d", i+1)] = s
		}
	}
	return named
}

// minSecretLen is the shortest API key worth redacting.
const minSecretLen = 8

// openDatalogFile opens the configured datalog with keel's secrets to
// redact: the providers' API keys and the MCP servers' credentials.
func openDatalogFile(cfg *config.Config, secrets []string) (*datalog.DB, error) {
	db, err := datalog.Open(cfg.DatalogPath(), datalog.Options{Environ: os.Environ(), Secrets: namedSecrets(cfg, secrets), CaptureBodies: cfg.Datalog.CaptureBodies})
	if err != nil {
		return nil, fmt.Errorf("the datalog cannot be opened, so keel cannot record this run or undo its changes: %w", err)
	}
	return db, nil
}

// disciplinePolicy maps the configuration onto discipline's thresholds.
func disciplinePolicy(cfg *config.Config, headless bool) discipline.Policy {
	return config.DisciplinePolicy(cfg, headless)
}

// resumeTarget is the session to continue (-c or --resume), or "".
func (a *app) resumeTarget(ctx context.Context, db *datalog.DB, root, resume string) (string, error) {
	if resume == "" {
		resume = a.flags.resume
	}
	switch {
	case resume != "":
		if db == nil {
			return "", usageError(errors.New("resuming a session needs the datalog, which could not be opened"))
		}
		id, err := db.ResolveID(ctx, resume)
		if err != nil {
			return "", usageError(err)
		}
		return id, nil
	case a.flags.continueLast:
		if db == nil {
			return "", usageError(errors.New("--continue needs the datalog, which could not be opened"))
		}
		s, err := db.LatestSession(ctx, root)
		if errors.Is(err, datalog.ErrNotFound) {
			return "", usageError(fmt.Errorf("there is no earlier session in %s to continue; start one with keel, or list sessions with keel log", root))
		}
		if err != nil {
			return "", usageError(err)
		}
		return s.ID, nil
	}
	return "", nil
}

// resumed is a stored session's state, ready for agent.Options.
type resumed struct {
	history  []llm.Message
	plan     *agent.Plan
	taskSeq  int
	roundSeq int
	notes    []agent.Note
	project  string // the project root it was logged in
}

func loadResumed(ctx context.Context, db *datalog.DB, id string) (resumed, error) {
	var r resumed
	hist, err := db.LoadHistory(ctx, id)
	if err != nil {
		return r, err
	}
	r.history = hist
	s, err := db.GetSession(ctx, id)
	if err != nil {
		return r, err
	}
	r.roundSeq, r.project = s.Totals.Rounds, s.ProjectRoot
	if note := undoneNote(ctx, db, id, s.ProjectRoot); note != nil {
		r.history = append(r.history, *note)
	}
	if task, err := db.RoundTaskSeq(ctx, id, r.roundSeq); err == nil {
		r.taskSeq = task
	}
	if snap, err := db.LatestPlan(ctx, id); err == nil && snap != nil {
		r.plan = decodePlan(snap)
	}
	if evs, err := db.NoteEvents(ctx, id); err == nil {
		r.notes = agent.ReplayNotes(evs)
	}
	return r, nil
}
