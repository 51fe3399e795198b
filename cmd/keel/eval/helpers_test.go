package eval_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/cmd/keel/eval"
	"github.com/keel-dev/keel/cmd/keel/eval/evaltest"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/discipline"
	"github.com/keel-dev/keel/tools"
)

// builder builds sessions as cmd/keel's eval does — the real tools on the
// copy, the task's permission rules, the configured discipline and
// limits, headless — with a scripted model instead of a provider and
// without the sandbox (a test binary cannot be the sandbox helper).
func builder(m *evaltest.Model) eval.Builder {
	return func(ctx context.Context, dir string, cfg *config.Config, t *eval.Task, _ string) (*agent.Session, error) {
		ws, err := tools.NewWorkspace(dir)
		if err != nil {
			return nil, err
		}
		toolset := tools.New(ws, tools.Options{})
		policy, err := tools.NewPolicy(ws, tools.PolicyOptions{Allow: t.Allow, Deny: cfg.Permissions.Deny})
		if err != nil {
			return nil, err
		}
		env := agent.DetectEnv(dir, ws.Root(), time.Now())
		for _, tl := range toolset {
			env.Tools = append(env.Tools, tl.Name())
		}
		return agent.New(agent.Options{
			Provider: &evaltest.Provider{Model: m}, ProviderName: "scripted", Model: string(m.Kind()),
			Tools: toolset, Permissions: policy, Workdir: ws.Root(), SystemPrompt: agent.SystemPrompt(env),
			Discipline: disciplinePolicy(cfg),
			Limits:     agent.Limits{MaxTurns: cfg.MaxTurns, MaxToolCalls: cfg.MaxToolCalls, TokenBudget: cfg.TokenBudget},
		}), nil
	}
}

// disciplinePolicy is keel's mapping of config onto discipline (headless).
func disciplinePolicy(cfg *config.Config) discipline.Policy {
	return config.DisciplinePolicy(cfg, true)
}

// suite loads the bundled suite, selecting names (none: all).
func suite(t *testing.T, names ...string) []*eval.Task {
	t.Helper()
	all, err := eval.Suite()
	if err != nil {
		t.Fatal(err)
	}
	sel, err := eval.Select(all, names)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// settings parses text or fails the test.
func settings(t *testing.T, text string) eval.Settings {
	t.Helper()
	s, err := eval.ParseSettings(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scriptedEval runs tasks with model kind, A and B, and summarises.
func scriptedEval(t *testing.T, kind evaltest.Kind, tasks []*eval.Task, runs int, a, b string) *eval.Report {
	t.Helper()
	m, err := evaltest.New(kind)
	if err != nil {
		t.Fatal(err)
	}
	sa, sb := settings(t, a), settings(t, b)
	results, err := eval.Run(context.Background(), eval.Options{
		Config: config.Defaults(), Tasks: tasks, Runs: runs, A: sa, B: sb,
		Parallel: 8, Timeout: 2 * time.Minute, Build: builder(m), TempDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return eval.Summarize(string(kind), tasks, runs, sa, sb, results)
}

// extract writes task's project into a new directory.
func extract(t *testing.T, task *eval.Task) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), task.Name)
	if err := task.Extract(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// bash runs command in dir and reports whether it succeeded.
func bash(t *testing.T, dir, command string) (string, bool) {
	t.Helper()
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}
