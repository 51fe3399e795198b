package headless

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
)

// fakeTool is a tool whose run the test writes.
type fakeTool struct {
	name  string
	class tools.Class
	run   func(context.Context, json.RawMessage) (tools.Result, error)
}

func (f *fakeTool) Name() string            { return f.name }
func (f *fakeTool) Description() string     { return "test tool " + f.name }
func (f *fakeTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (f *fakeTool) Class() tools.Class      { return f.class }
func (f *fakeTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	return f.run(ctx, args)
}

// newSession starts a fake server with script and a headless session
// talking to it.
func newSession(t *testing.T, script llmtest.Script, mutate func(*agent.Options)) (*agent.Session, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Start(t, script)
	client := llm.New(llm.Config{Name: "fake", BaseURL: srv.URL(), APIKey: "test-key", Model: "fake-model", IdleTimeout: 5 * time.Second})
	opts := agent.Options{
		Provider:     &agent.RetryingProvider{Clients: []*llm.Client{client}},
		ProviderName: "fake", Model: "fake-model", Discipline: config.DefaultDisciplinePolicy(true), SystemPrompt: "you are a test",
	}
	if mutate != nil {
		mutate(&opts)
	}
	s := agent.New(opts)
	t.Cleanup(s.Close)
	return s, srv
}

func call(id, name, args string) llmtest.Call { return llmtest.Call{ID: id, Name: name, Args: args} }
