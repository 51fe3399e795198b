package main

// Helpers for the discipline suites (discipline_nofire_test.go and
// discipline_fire_test.go): scripted sessions through the real agent loop,
// with the fake chat-completions server, keel's real tools on a temporary
// workspace, and the discipline policy keel ships (config.Defaults mapped
// by disciplinePolicy, headless).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
)

// suite is one scripted session's setup.
type suite struct {
	files   map[string]string // workspace files, path -> content
	rounds  []llmtest.Round
	prompts []string             // tasks in order; one "go" when empty
	cfg     func(*config.Config) // changes to the shipped defaults
	canned  map[string]canned    // replaces run_command when set
}

// canned is a scripted command result, for machines without the program.
type canned struct {
	out  string
	exit int
}

// suiteRun is what a session did: every event and each task's stop.
type suiteRun struct {
	events []agent.Event
	stops  []agent.TaskStopped
	srv    *llmtest.Server
	dir    string
}

// runSuite builds the workspace and the session and runs every task.
func runSuite(t *testing.T, su suite) suiteRun {
	t.Helper()
	dir := t.TempDir()
	for p, content := range su.files {
		writeSuiteFile(t, dir, p, content)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Defaults()
	if su.cfg != nil {
		su.cfg(cfg)
	}
	srv := llmtest.Start(t, llmtest.Rounds(su.rounds...))
	client := llm.New(llm.Config{Name: "fake", BaseURL: srv.URL(), APIKey: "test-key", Model: "fake-model", IdleTimeout: 5 * time.Second})
	toolset := tools.New(ws, tools.Options{Env: suiteEnv(t)})
	if su.canned != nil {
		toolset = replaceTool(toolset, cannedCommands(su.canned))
	}
	s := agent.New(agent.Options{
		Provider:     &agent.RetryingProvider{Clients: []*llm.Client{client}},
		ProviderName: "fake", Model: "fake-model",
		Tools: toolset, Workdir: ws.Root(), SystemPrompt: "you are a test",
		Discipline:    disciplinePolicy(cfg, true),
		MaxBacktracks: cfg.Plan.MaxBacktrackAttempts,
	})
	t.Cleanup(s.Close)
	run := suiteRun{srv: srv, dir: ws.Root()}
	prompts := su.prompts
	if len(prompts) == 0 {
		prompts = []string{"go"}
	}
	for _, p := range prompts {
		evs, st := suiteTask(t, s, p)
		run.events = append(run.events, evs...)
		run.stops = append(run.stops, st)
	}
	return run
}

// suiteEnv is the commands' environment: the test's, with the Go caches
// kept where they are (HOME may be anywhere).
func suiteEnv(t *testing.T) []string {
	env := os.Environ()
	for _, k := range []string{"GOCACHE", "GOMODCACHE"} {
		if v := goEnv(t, k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return append(env, "GOFLAGS=-count=1", "GOTOOLCHAIN=local", "PYTHONDONTWRITEBYTECODE=1")
}

// suiteTask submits one prompt and collects events until it stops.
func suiteTask(t *testing.T, s *agent.Session, prompt string) ([]agent.Event, agent.TaskStopped) {
	t.Helper()
	if err := s.Submit(context.Background(), prompt); err != nil {
		t.Fatal(err)
	}
	var evs []agent.Event
	deadline := time.After(2 * time.Minute) // only keeps a broken test from hanging
	for {
		select {
		case ev := <-s.Events():
			evs = append(evs, ev)
			if st, ok := ev.(agent.TaskStopped); ok {
				return evs, st
			}
		case <-deadline:
			t.Fatalf("task %q did not stop", prompt)
		}
	}
}

// fired lists the run's interventions as "kind@call", in firing order.
func (r suiteRun) fired() []string {
	var out []string
	for _, ev := range r.events {
		if f, ok := ev.(agent.InterventionFired); ok {
			out = append(out, fmt.Sprintf("%s@%d", f.Intervention.Kind, f.Intervention.AtToolCall))
		}
	}
	return out
}

// interventions returns the fired interventions of one kind.
func (r suiteRun) interventions(kind string) []agent.Intervention {
	var out []agent.Intervention
	for _, ev := range r.events {
		if f, ok := ev.(agent.InterventionFired); ok && f.Intervention.Kind == kind {
			out = append(out, f.Intervention)
		}
	}
	return out
}

func writeSuiteFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tc is one scripted tool call; args are built from key/value pairs.
func tc(name string, kv ...any) llmtest.Call {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return llmtest.Call{Name: name, Args: string(b)}
}

// one is a round with one call per entry: each call its own round.
func one(calls ...llmtest.Call) []llmtest.Round {
	rs := make([]llmtest.Round, len(calls))
	for i, c := range calls {
		rs[i] = llmtest.ToolRound(c)
	}
	return rs
}

// script joins rounds and ends with a final answer.
func script(answer string, parts ...[]llmtest.Round) []llmtest.Round {
	var out []llmtest.Round
	for _, p := range parts {
		out = append(out, p...)
	}
	return append(out, llmtest.TextRound(answer))
}

// numbered is a file of n numbered lines.
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// cannedCommands is a run_command that answers from a table.
func cannedCommands(table map[string]canned) tools.Tool {
	return &suiteTool{name: tools.NameRunCommand, class: tools.Execute, run: func(args json.RawMessage) tools.Result {
		var a struct{ Command string }
		_ = json.Unmarshal(args, &a)
		c, ok := table[a.Command]
		if !ok {
			c = canned{out: "bash: " + a.Command + ": command not found", exit: 127}
		}
		exit := c.exit
		return tools.Result{Output: fmt.Sprintf("%s\n[exit code %d, 0.1s]", c.out, exit), IsError: exit != 0, ExitCode: &exit}
	}}
}

// suiteTool is a hand-written tool for the suites.
type suiteTool struct {
	name  string
	class tools.Class
	run   func(json.RawMessage) tools.Result
}

var _ tools.Tool = (*suiteTool)(nil)

func (f *suiteTool) Name() string            { return f.name }
func (f *suiteTool) Description() string     { return "test tool " + f.name }
func (f *suiteTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (f *suiteTool) Class() tools.Class      { return f.class }
func (f *suiteTool) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	return f.run(args), nil
}

func replaceTool(ts []tools.Tool, t tools.Tool) []tools.Tool {
	out := make([]tools.Tool, 0, len(ts))
	for _, x := range ts {
		if x.Name() == t.Name() {
			x = t
		}
		out = append(out, x)
	}
	return out
}

// have reports whether a program is installed.
func have(program string) bool {
	_, err := exec.LookPath(program)
	return err == nil
}
