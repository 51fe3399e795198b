package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
)

// fakeTool is a hand-written tool for loop tests.
type fakeTool struct {
	name  string
	class tools.Class
	run   func(ctx context.Context, args json.RawMessage) (tools.Result, error)
	calls atomic.Int32
}

var _ tools.Tool = (*fakeTool)(nil)

func (f *fakeTool) Name() string        { return f.name }
func (f *fakeTool) Description() string { return "test tool " + f.name }
func (f *fakeTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
}
func (f *fakeTool) Class() tools.Class { return f.class }
func (f *fakeTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	f.calls.Add(1)
	if f.run != nil {
		return f.run(ctx, args)
	}
	return tools.Result{Output: "ok " + string(args)}, nil
}

// echoTool is read-only and answers with its arguments.
func echoTool() *fakeTool { return &fakeTool{name: "echo", class: tools.ReadOnly} }

// blockingTool runs until its context is cancelled; started is closed when it runs.
func blockingTool(started chan struct{}) *fakeTool {
	return &fakeTool{name: "wait", class: tools.Execute, run: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
		close(started)
		<-ctx.Done()
		return tools.Result{Output: "interrupted", IsError: true}, nil
	}}
}

// newSession starts a fake server with script and a session talking to it.
func newSession(t *testing.T, script llmtest.Script, mutate func(*Options)) (*Session, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Start(t, script)
	client := llm.New(llm.Config{Name: "fake", BaseURL: srv.URL(), APIKey: "test-key", APIKeyEnv: "FAKE_API_KEY", Model: "fake-model", IdleTimeout: 5 * time.Second})
	pol := config.DefaultDisciplinePolicy(true)
	pol.ReflectionCadence = 0
	pol.Headless = true
	cfg := config.Defaults() // config owns the defaults; the tests take them
	opts := Options{
		Limits: Limits{CompactAt: cfg.CompactAt, MaxCompactions: cfg.MaxCompactions,
			KeepRounds: cfg.CompactKeepRounds, ToolOutputCap: cfg.ToolOutputCap},
		MaxBacktracks: cfg.Plan.MaxBacktrackAttempts,
		Provider:      &RetryingProvider{Clients: []*llm.Client{client}, Retrier: llm.Retrier{Sleep: noSleep, BaseBackoff: time.Millisecond}},
		ProviderName:  "fake",
		Model:         "fake-model",
		Tools:         []tools.Tool{echoTool()},
		Discipline:    pol,
		SystemPrompt:  "you are a test",
		// Every test of the loop asserts the state machine holds.
		OnInternalError: func(what string) { t.Errorf("internal error: %s", what) },
	}
	if mutate != nil {
		mutate(&opts)
	}
	s := New(opts)
	t.Cleanup(s.Close)
	return s, srv
}

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// runTask submits prompt and collects events until the task stops.
func runTask(t *testing.T, ctx context.Context, s *Session, prompt string) ([]Event, TaskStopped) {
	t.Helper()
	if err := s.Submit(ctx, prompt); err != nil {
		t.Fatalf("submit: %v", err)
	}
	return collect(t, s)
}

// collect drains events until TaskStopped. The deadline only keeps a
// broken test from hanging; nothing asserts on time.
func collect(t *testing.T, s *Session) ([]Event, TaskStopped) {
	t.Helper()
	var evs []Event
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev := <-s.Events():
			evs = append(evs, ev)
			if st, ok := ev.(TaskStopped); ok {
				return evs, st
			}
		case <-deadline:
			t.Fatalf("task did not stop; events so far: %s", describe(evs))
		}
	}
}

func describe(evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%T%+v\n", e, e)
	}
	return b.String()
}

// eventsOf returns the events of type T.
func eventsOf[T Event](evs []Event) []T {
	var out []T
	for _, e := range evs {
		if v, ok := e.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

func call(id, name, args string) llmtest.Call { return llmtest.Call{ID: id, Name: name, Args: args} }

// benchSession is newSession without a *testing.T, for benchmarks.
func benchSession(srv *llmtest.Server) *Session {
	client := llm.New(llm.Config{Name: "fake", BaseURL: srv.URL(), APIKey: "k", Model: "m"})
	pol := config.DefaultDisciplinePolicy(true)
	pol.Headless = true
	return New(Options{
		Provider:   &RetryingProvider{Clients: []*llm.Client{client}},
		Tools:      []tools.Tool{echoTool()},
		Discipline: pol,
	})
}

// await waits for ch to close or deliver; the deadline only keeps a
// broken test from hanging (it fails it instead).
func await[T any](t *testing.T, ch <-chan T, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}
