package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/keel-dev/keel/tools/sandbox"
	"io"
	"os"
	"slices"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/telemetry"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/tools/mcp"
)

// sessionSetup is what building a session needs besides the configuration.
type sessionSetup struct {
	headless  bool
	gate      agent.Gate
	asker     agent.Asker
	recAsker  agent.RecordAsker    // nil: a change the datalog cannot record stops the task (headless)
	confirmer agent.PlanConfirmer  // nil: headless approves plans with a notice
	model     *modelChoice         // nil: the configured provider (the demo sets its own)
	policy    *tools.PolicyOptions // nil: config rules plus --allow
	notify    func(string)         // MCP servers' notices; nil: stderr
	tail      *transcriptTail      // the TUI's: a resumed session's last rounds are read into it; nil: not wanted
	cwd       string               // keel acp's session directory; "": --cwd or the process's
	resume    string               // keel acp's session/load: the session to resume; "": --resume or -c
	files     tools.ClientFiles    // keel acp: the editor's file access; nil: the disk
}

// builtSession is a ready session and what must be closed after it.
type builtSession struct {
	session  *agent.Session
	db       *datalog.DB     // nil for a headless session, whose recorder owns it
	recorder *agent.Recorder // closes an asynchronously opened datalog
	cfg      *config.Config
	root     string
	notices  []string     // one-line notes for the user at start (headless: stderr)
	mcp      *mcp.Manager // the MCP servers, started in the background; nil in the demo
	ws       *tools.Workspace
	env      agent.PromptEnv // where the session runs (the TUI's start banner)
	toolOpts tools.Options   // the tools' options: the environment of the user's !commands
	model    string          // the model and provider it talks to (headless's init line)
	provider string
	tools    []tools.Tool // the session's tools and policy, for the TUI's !commands
	policy   *tools.Policy
	runner   *sandbox.Runner          // how commands are confined, for /status
	tracer   *telemetry.SessionTracer // nil without telemetry
	tel      *telemetry.Exporter      // nil without telemetry
}

// close ends the session and closes the datalog, saying on stderr when
// records could not be saved even after retrying.
func (b *builtSession) close(stderr io.Writer) {
	b.session.Close()
	b.tracer.End(b.session.ID())
	if b.mcp != nil {
		b.mcp.Close() // their process groups die with keel
	}
	var errs []error
	if b.db != nil {
		if id := b.session.ID(); id != "" && len(b.session.History()) == 0 {
			errs = append(errs, b.db.DropEmptySession(context.Background(), id)) // opened and closed without a prompt
		}
		errs = append(errs, b.db.Close())
	}
	errs = append(errs, b.recorder.Close())
	for _, err := range errs {
		if err != nil {
			fmt.Fprintf(stderr, "keel: %v\n", err)
		}
	}
}

// buildSession wires config, tools, permissions, provider, datalog and
// discipline into a session. Only this function knows all the pieces.
func (a *app) buildSession(ctx context.Context, cfg *config.Config, setup sessionSetup) (*builtSession, error) {
	cwd := setup.cwd
	if cwd == "" {
		var err error
		if cwd, err = a.workDir(); err != nil {
			return nil, err
		}
	}
	ws, err := tools.NewWorkspace(cwd)
	if err != nil {
		return nil, usageError(fmt.Errorf("the working directory %s cannot be used: %w", cwd, err))
	}
	if setup.files != nil {
		ws.UseClientFiles(setup.files)
	}
	m, err := a.resolveModel(cfg, setup.model)
	if err != nil {
		return nil, err
	}
	runner, notice := sandboxRunner(cfg, ws.Root())
	jobs := tools.NewJobs(tools.JobsOptions{})
	topts := tools.Options{SecretEnvNames: secretEnvNames(cfg), SecretValues: m.secrets, Env: childEnv(cfg, os.Environ()), Sandbox: runner, Jobs: jobs}
	toolset := tools.New(ws, topts)
	hookRun, err := hookRunner(cfg, ws.Root(), topts)
	if err != nil {
		return nil, usageError(err)
	}
	recallTool := addRecallTool(&toolset, cfg, ws.Root())
	if err := addFetchTool(&toolset, cfg); err != nil {
		return nil, usageError(err)
	}
	mcpTools := addMCPTools(&toolset, cfg, ws.Root(), a.mcpNotifier(setup))
	popts := a.policyOptions(cfg, setup)
	popts.Tools, popts.Unconfined, popts.Persist = toolset, unconfined(cfg, runner), persistRule()
	popts.Allow = append(slices.Clip(popts.Allow), fetchRules(cfg)...)
	policy, err := tools.NewPolicy(ws, popts)
	if err != nil {
		return nil, usageError(err)
	}
	tel, telNotice := a.telemetryExporter(cfg, m.secrets, a.mcpNotifier(setup))
	opts := a.agentOptions(cfg, setup, m)
	opts.Tools, opts.Permissions, opts.Workdir, opts.Project, opts.Jobs = toolset, policy, ws.Root(), ws.Root(), jobs
	if hookRun != nil {
		opts.Hooks = hookRun
	}
	opts.Workspace = ws // its writes are journaled for undo
	env := agent.DetectEnv(cwd, ws.Root(), opts.Now())
	var agentNotices []string
	opts.Subagents, agentNotices = a.subagents(cfg, ws.Root(), env)
	for _, t := range tools.Expand(toolset) { // MCP tools are not known yet: they describe themselves
		env.Tools = append(env.Tools, t.Name())
	}
	env.Tools = append(env.Tools, agent.OwnTools(opts)...) // the session's own
	opts.SystemPrompt = agent.SystemPrompt(env)
	rec := datalog.Session{ProjectRoot: ws.Root(), Cwd: cwd, GitBranch: env.GitBranch, Provider: opts.ProviderName, Model: opts.Model, Started: opts.Now()}
	db, err := a.attachDatalog(ctx, cfg, setup, m.secrets, &opts, rec)
	if err != nil {
		return nil, err
	}
	recallTool.Exclude(opts.Recorder.SessionID)
	tracer := traceSession(tel, &opts, len(opts.History) > 0, ws.Root())
	s := agent.New(opts)
	tracer.Bind(s.KnownID)
	b := &builtSession{session: s, db: db, recorder: opts.Recorder, cfg: cfg, root: ws.Root(), mcp: mcpTools,
		ws: ws, env: env, tools: toolset, policy: policy, runner: runner, model: opts.Model, provider: opts.ProviderName,
		tracer: tracer, tel: tel, toolOpts: topts}
	mcpTools.Start() // in the background: their tools join the requests that follow their start
	elsewhere := a.resumedElsewhere
	a.resumedElsewhere = ""
	for _, n := range []string{notice, telNotice, elsewhere} {
		if n != "" {
			b.notices = append(b.notices, n)
		}
	}
	b.notices = append(b.notices, agentNotices...)
	return b, nil
}

// modelChoice is the model a session talks to: the configured provider
// chain, or an override such as the demo's scripted model.
type modelChoice struct {
	provider agent.Provider
	name     string // provider name
	model    string
	window   int
	maxOut   int
	prices   *agent.Prices
	secrets  []string // API key values, kept out of logs and child processes
}

// resolveModel is the override when there is one, else the configured
// provider with its fallbacks.
func (a *app) resolveModel(cfg *config.Config, override *modelChoice) (modelChoice, error) {
	if override != nil {
		return *override, nil
	}
	prov, clients, secrets, err := a.providerClients(cfg)
	if err != nil {
		return modelChoice{}, err
	}
	return modelChoice{provider: &agent.RetryingProvider{Retrier: retrier(cfg), Clients: clients}, name: prov.Name, model: clients[0].Model(),
		window: prov.ContextWindow, maxOut: prov.MaxOutputTokens, prices: prices(cfg, prov), secrets: secrets}, nil
}

// policyOptions are the permission rules: the setup's own (the demo), or
// config plus --allow.
func (a *app) policyOptions(cfg *config.Config, setup sessionSetup) tools.PolicyOptions {
	if setup.policy != nil {
		return *setup.policy
	}
	return tools.PolicyOptions{Allow: append(cfg.Permissions.Allow, a.flags.allow...), Deny: cfg.Permissions.Deny, Yolo: cfg.Yolo}
}

// agentOptions maps the configuration and the model onto agent.Options.
func (a *app) agentOptions(cfg *config.Config, setup sessionSetup, m modelChoice) agent.Options {
	return agent.Options{
		Provider: m.provider, ProviderName: m.name, Model: m.model,
		ContextWindow: m.window, MaxOutputTokens: m.maxOut, Prices: m.prices, AcceptsImages: cfg.AcceptsImages,
		Gate: setup.gate, Asker: setup.asker, ConfirmPlan: cfg.Plan.Confirm, Confirmer: setup.confirmer, RecordAsker: setup.recAsker,
		Yolo:       cfg.Yolo,
		Discipline: disciplinePolicy(cfg, setup.headless),
		Limits: agent.Limits{MaxTurns: cfg.MaxTurns, MaxToolCalls: cfg.MaxToolCalls, TokenBudget: cfg.TokenBudget,
			CompactAt: cfg.CompactAt, MaxCompactions: cfg.MaxCompactions, KeepRounds: cfg.CompactKeepRounds, ToolOutputCap: cfg.ToolOutputCap},
		MaxBacktracks:        cfg.Plan.MaxBacktrackAttempts,
		StructuredReflection: cfg.ReflectionStructured,
		NotesMax:             cfg.Memory.NotesMax,
		Lessons:              lessonsOffered(cfg),
		MaxDuration:          cfg.MaxDuration,
		CaptureBodies:        cfg.Datalog.CaptureBodies,
		Now:                  time.Now,
		OnInternalError:      internalErrorLog(a.stderr),
	}
}

// attachDatalog gives the session its datalog record: the resumed
// session's (opened now: its history is needed), or a new one. A new
// headless session opens the datalog on its own goroutine, so the first
// request does not wait for the disk; the TUI needs the database at once
// for its browser and returns it.
func (a *app) attachDatalog(ctx context.Context, cfg *config.Config, setup sessionSetup, secrets []string, opts *agent.Options, rec datalog.Session) (*datalog.DB, error) {
	snapshot, _ := json.Marshal(configSnapshot(cfg))
	rec.Config = snapshot
	if setup.headless && a.flags.resume == "" && !a.flags.continueLast {
		rec.ID = datalog.NewID(rec.Started) // known at once, for stream-json's init line
		opts.SessionID = rec.ID
		opts.Recorder = agent.NewRecorderAsync(func() (*datalog.DB, string, error) {
			db, err := openDatalogFile(cfg, secrets)
			if err != nil {
				return nil, "", err
			}
			removeStaleTemps(db, rec.ProjectRoot)
			id, err := db.StartSession(context.Background(), rec)
			if err != nil && !pendingWrite(err) {
				_ = db.Close()
				return nil, "", fmt.Errorf("the datalog is off for this run: %w", err)
			}
			return db, id, nil // a pending row is retried and saved once the database lets it
		})
		return nil, nil
	}
	db, openErr := a.openDatalog(cfg, secrets)
	if openErr != nil { // every file change asks first: undo could not restore it
		opts.Recorder = agent.NewRecorderAsync(func() (*datalog.DB, string, error) { return nil, "", openErr })
	}
	removeStaleTemps(db, rec.ProjectRoot)
	if err := a.startOrResume(ctx, db, opts, rec, setup); err != nil {
		if db != nil {
			_ = db.Close()
		}
		return nil, err
	}
	return db, nil
}

// startOrResume attaches db to a resumed session (-c, --resume) or a new
// one; a resumed session's last rounds are read into tail meanwhile.
func (a *app) startOrResume(ctx context.Context, db *datalog.DB, opts *agent.Options, rec datalog.Session, setup sessionSetup) error {
	tail := setup.tail
	id, err := a.resumeTarget(ctx, db, rec.ProjectRoot, setup.resume)
	if err != nil || db == nil {
		return err
	}
	if id != "" {
		tail.start(ctx, db, id)
		r, err := loadResumed(ctx, db, id)
		if err != nil {
			tail.wait() // before the caller closes db
			return usageError(fmt.Errorf("session %s cannot be resumed: %w; keel log show %s shows what it recorded, and keel without -c starts a new session", id, err, datalog.ShortID(id)))
		}
		opts.History, opts.Plan, opts.TaskSeq, opts.RoundSeq, opts.Notes = r.history, r.plan, r.taskSeq, r.roundSeq, r.notes
		if r.project != "" && r.project != rec.ProjectRoot {
			a.resumedElsewhere = fmt.Sprintf("session %s was logged in another project, %s; it goes on here, in %s, where its paths may not exist",
				datalog.ShortID(id), r.project, rec.ProjectRoot)
		}
		opts.SessionID = id
		opts.Recorder = agent.NewRecorder(db, id, 0, true)
		return nil
	}
	id, err = db.StartSession(ctx, rec)
	switch {
	case pendingWrite(err):
		fmt.Fprintf(a.stderr, "keel: %v\n", err)
	case err != nil:
		err = fmt.Errorf("the datalog cannot record this session: %w", err)
		fmt.Fprintf(a.stderr, "keel: %v\n", err)
		opts.Recorder = agent.NewRecorderAsync(func() (*datalog.DB, string, error) { return nil, "", err })
		return nil
	}
	opts.SessionID = id
	opts.Recorder = agent.NewRecorder(db, id, 0, false)
	return nil
}

// configSnapshot is the configuration as rendered TOML, with API keys
// masked by config.Render.
func configSnapshot(cfg *config.Config) map[string]string {
	return map[string]string{"toml": config.Render(cfg)}
}

func prices(cfg *config.Config, p config.Provider) *agent.Prices {
	price, ok := cfg.Prices(p)
	if !ok {
		return nil // cost unknown
	}
	return &agent.Prices{InputPerMTok: price.InputPerMTok, OutputPerMTok: price.OutputPerMTok}
}

// secretEnvNames are the variables run_command must not inherit: every
// provider's key variable.
func secretEnvNames(cfg *config.Config) []string {
	names := append([]string{"OPENAI_API_KEY"}, otlpHeaderNames...) // a collector's credentials
	for _, n := range cfg.ProviderNames() {
		if p, err := cfg.Provider(n); err == nil && p.APIKeyEnv != "" {
			names = append(names, p.APIKeyEnv)
		}
	}
	return names
}

func decodePlan(snap *datalog.PlanSnapshot) *agent.Plan {
	var p agent.Plan
	if json.Unmarshal(snap.Plan, &p) != nil {
		return nil
	}
	return &p
}

// pendingWrite reports a write the datalog keeps and retries (a lock, a
// full disk): the session goes on recording.
func pendingWrite(err error) bool {
	var we *datalog.WriteError
	return errors.As(err, &we)
}
