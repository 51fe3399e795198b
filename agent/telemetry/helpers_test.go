package telemetry

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// probe is a read-only tool that answers with its arguments.
type probe struct{}

func (probe) Name() string            { return "probe" }
func (probe) Description() string     { return "echoes its arguments" }
func (probe) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (probe) Class() tools.Class      { return tools.ReadOnly }
func (probe) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	return tools.Result{Output: "probed " + string(args)}, nil
}

// startExporter sends to c, with opts' other fields.
func startExporter(t *testing.T, c *collector, opts Options) *Exporter {
	t.Helper()
	opts.Endpoint = c.srv.URL
	opts.Getenv = func(string) string { return "" }
	e, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// runTask runs one task of a session over script with tr observing it,
// then ends the session's span and shuts the exporter down.
func runTask(t *testing.T, e *Exporter, script llmtest.Script, prompt string) agent.TaskStopped {
	t.Helper()
	srv := llmtest.Start(t, script)
	client := llm.New(llm.Config{Name: "fake", BaseURL: srv.URL(), APIKey: "test-key", Model: "fake-model", IdleTimeout: 5 * time.Second})
	tr := e.Session(SessionInfo{Provider: "fake", Model: "fake-model", ID: func() string { return "sess-1" }})
	s := agent.New(agent.Options{Provider: &agent.RetryingProvider{Clients: []*llm.Client{client}}, ProviderName: "fake", Model: "fake-model",
		Tools: []tools.Tool{probe{}}, SystemPrompt: "test", Observer: tr.Observe, Prices: &agent.Prices{InputPerMTok: 1, OutputPerMTok: 2}})
	if err := s.Submit(context.Background(), prompt); err != nil {
		t.Fatal(err)
	}
	var st agent.TaskStopped
	for ev := range s.Events() {
		if e, ok := ev.(agent.TaskStopped); ok {
			st = e
			break
		}
	}
	s.Close()
	tr.End("sess-1")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	return st
}

// toolThenAnswer is a task of two rounds: a probe call, then an answer.
func toolThenAnswer(args string) llmtest.Script {
	return llmtest.Rounds(
		llmtest.Round{ToolCalls: []llmtest.Call{{ID: "call_1", Name: "probe", Args: args}}, Usage: &llmtest.Usage{PromptTokens: 120, CompletionTokens: 7}},
		llmtest.Round{Text: "all done", Usage: &llmtest.Usage{PromptTokens: 150, CompletionTokens: 3}},
	)
}
