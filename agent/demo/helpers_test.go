package demo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
)

// harness is a real session on an extracted project, driven by the
// scripted Provider with no pauses.
type harness struct {
	dir string
	ws  *tools.Workspace
	s   *agent.Session
}

// newHarness extracts the project into a temp dir and builds a session
// with the real tools; mutate adjusts the options (cadence, permissions).
func newHarness(t *testing.T, cadence int, mutate func(*agent.Options, *tools.Workspace)) *harness {
	t.Helper()
	dir := t.TempDir()
	if err := Extract(dir); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	pol := config.DefaultDisciplinePolicy(true)
	pol.ReflectionCadence = cadence
	opts := agent.Options{
		Provider: &Provider{}, ProviderName: Name, Model: Model, ContextWindow: ContextWindow,
		Tools:      tools.New(ws, tools.Options{}),
		Discipline: pol,
		// as keel ships: checkpoints answered with reflect
		StructuredReflection: true,
		Limits:               agent.Limits{MaxTurns: 30, MaxToolCalls: 40},
		Workdir:              ws.Root(),
		// A short prompt: the story must not depend on keel's wording.
		SystemPrompt: "You are keel, a coding assistant.",
	}
	if mutate != nil {
		mutate(&opts, ws)
	}
	s := agent.New(opts)
	t.Cleanup(s.Close)
	return &harness{dir: dir, ws: ws, s: s}
}

// run submits prompt and collects the task's events up to TaskStopped.
// The deadline only keeps a broken test from hanging.
func (h *harness) run(t *testing.T, prompt string) ([]agent.Event, agent.TaskStopped) {
	t.Helper()
	if err := h.s.Submit(context.Background(), prompt); err != nil {
		t.Fatalf("submit: %v", err)
	}
	var evs []agent.Event
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case ev := <-h.s.Events():
			evs = append(evs, ev)
			if st, ok := ev.(agent.TaskStopped); ok {
				return evs, st
			}
		case <-deadline:
			t.Fatalf("task did not stop after %d events", len(evs))
		}
	}
}

// goTest runs `go test ./...` in dir and reports whether it passed.
func goTest(t *testing.T, dir string) (bool, string) {
	t.Helper()
	cmd := exec.Command("go", "test", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return err == nil, string(out)
}

func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
}

func readFile(t *testing.T, dir, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// eventsOf returns the events of type T.
func eventsOf[T agent.Event](evs []agent.Event) []T {
	var out []T
	for _, e := range evs {
		if v, ok := e.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// toolLines lists a task's finished tool calls as "name:ok",
// "name:error" or "name:denied", in the order the model asked for them
// (read-only calls run in parallel and finish in any order). The reflect
// calls that answer checkpoints are left out: the story is the rest.
func (h *harness) toolLines(evs []agent.Event) []string {
	marks := map[string]string{}
	for _, f := range eventsOf[agent.ToolFinished](evs) {
		if f.Name == agent.ReflectToolName {
			continue
		}
		mark := "ok"
		switch {
		case f.Denied:
			mark = "denied"
		case f.IsError:
			mark = "error"
		}
		marks[f.CallID] = f.Name + ":" + mark
	}
	var out []string
	for _, m := range h.s.History() {
		for _, c := range m.ToolCalls {
			if l, ok := marks[c.ID]; ok {
				out = append(out, l)
			}
		}
	}
	return out
}

func kinds(ins []agent.Intervention) string {
	var k []string
	for _, in := range ins {
		k = append(k, in.Kind)
	}
	return strings.Join(k, ",")
}

// gateFunc answers permission requests with a function.
type gateFunc func(agent.PermissionRequest) agent.PermissionReply

func (g gateFunc) Ask(_ context.Context, req agent.PermissionRequest) (agent.PermissionReply, error) {
	return g(req), nil
}
