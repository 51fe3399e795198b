package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/cmd/keel/eval"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
)

// checkTimeout bounds one command of a task's checker.
const checkTimeout = 2 * time.Minute

// evalBuilder builds each eval run's session from the pieces buildSession
// uses — tools on the run's copy, the sandbox, the configured model,
// limits and discipline (with the run's settings), headless — but with the
// task's own permission rules (plus the user's deny rules; never --yolo
// or the user's allow rules) and no datalog of the user's: eval runs are
// not the user's sessions. With lessons on, runs record into the eval's
// own throwaway datalog (evalLessons), each task and arm one project, so
// a run is offered the lessons of the same task's earlier runs on its own
// side of the comparison, never the other side's.
func (a *app) evalBuilder(m modelChoice) eval.Builder {
	return func(ctx context.Context, dir string, cfg *config.Config, t *eval.Task, arm string) (*agent.Session, error) {
		ws, err := tools.NewWorkspace(dir)
		if err != nil {
			return nil, fmt.Errorf("the copy of task %s cannot be used: %w", t.Name, err)
		}
		if ws.Root() != realPath(dir) {
			return nil, fmt.Errorf("the copy of task %s is not its own workspace (%s is): set TMPDIR to a directory outside any git repository", t.Name, ws.Root())
		}
		runner, _ := sandboxRunner(cfg, ws.Root()) // the notice was printed once
		toolset := tools.New(ws, tools.Options{SecretEnvNames: secretEnvNames(cfg), SecretValues: m.secrets,
			Env: childEnv(cfg, os.Environ()), Sandbox: runner})
		policy, err := tools.NewPolicy(ws, tools.PolicyOptions{Allow: t.Allow, Deny: cfg.Permissions.Deny, Unconfined: unconfined(cfg, runner)})
		if err != nil {
			return nil, usageError(err)
		}
		opts := a.agentOptions(cfg, sessionSetup{headless: true, gate: agent.DenyGate{}}, m)
		opts.Yolo, opts.ConfirmPlan = false, false
		opts.Tools, opts.Permissions, opts.Workdir = toolset, policy, ws.Root()
		env := agent.DetectEnv(ws.Root(), ws.Root(), opts.Now())
		for _, tl := range toolset {
			env.Tools = append(env.Tools, tl.Name())
		}
		env.Tools = append(env.Tools, agent.OwnTools(opts)...)
		opts.SystemPrompt = agent.SystemPrompt(env)
		if opts.Lessons > 0 {
			if err := a.evalLessons.attach(ctx, &opts, t.Name, arm); err != nil {
				return nil, err
			}
		}
		s := agent.New(opts)
		return s, nil
	}
}

// realPath is p with symlinks resolved (p itself when that fails).
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// sandboxNotice is what the sandbox says about this machine, if anything.
func sandboxNotice(cfg *config.Config) string {
	_, notice := sandboxRunner(cfg, os.TempDir())
	return notice
}

// checkRunner runs a checker's command in the run's copy through the same
// sandbox as the model's commands, with the same environment (no keys).
func checkRunner(cfg *config.Config, secrets []string) eval.CommandRunner {
	return func(ctx context.Context, dir, command string) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, checkTimeout)
		defer cancel()
		runner, _ := sandboxRunner(cfg, dir)
		if runner != nil && runner.Refuse != "" {
			return "", errors.New("commands cannot run: " + runner.Refuse)
		}
		if runner == nil {
			return "", errors.New("keel cannot find its own binary to run the check in its sandbox")
		}
		cmd, err := runner.Command(ctx, []string{"bash", "-c", command})
		if err != nil {
			return "", err
		}
		var out bytes.Buffer
		cmd.Dir, cmd.Env = dir, withoutValues(childEnv(cfg, os.Environ()), secrets)
		cmd.Stdout, cmd.Stderr = &out, &out
		err = cmd.Run()
		return out.String(), err
	}
}

// withoutValues drops variables whose value is one of secrets (an API key
// exported under another name).
func withoutValues(env, secrets []string) []string {
	return slices.DeleteFunc(env, func(kv string) bool {
		_, v, _ := strings.Cut(kv, "=")
		return v != "" && slices.Contains(secrets, v)
	})
}
