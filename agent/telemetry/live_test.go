package telemetry

import (
	"context"
	"strings"
	"testing"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

func one(t *testing.T, spans []*tracepb.Span, name string) *tracepb.Span {
	t.Helper()
	got := named(spans, name)
	if len(got) != 1 {
		t.Fatalf("%d spans named %q, want 1 (all: %v)", len(got), name, names(spans))
	}
	return got[0]
}

func names(spans []*tracepb.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

func TestLiveSessionSpanTree(t *testing.T) {
	c := newCollector(t)
	e := startExporter(t, c, Options{ServiceVersion: "test"})
	st := runTask(t, e, toolThenAnswer(`{"q":"x"}`), "find the bug")
	if st.Reason != "completed" {
		t.Fatalf("task stopped with %s", st.Reason)
	}
	spans := c.allSpans()
	sess := one(t, spans, "keel session")
	task := one(t, spans, "invoke_agent keel")
	tool := one(t, spans, "execute_tool probe")
	rounds := named(spans, "chat fake-model")
	if len(rounds) != 2 {
		t.Fatalf("%d chat spans, want 2: %v", len(rounds), names(spans))
	}
	if string(task.ParentSpanId) != string(sess.SpanId) {
		t.Error("the task's span is not the session's child")
	}
	for _, r := range rounds {
		if string(r.ParentSpanId) != string(task.SpanId) {
			t.Error("a round's span is not the task's child")
		}
		if string(r.TraceId) != string(sess.TraceId) {
			t.Error("a round is in another trace")
		}
	}
	first := rounds[0]
	if attr(first, "keel.round.seq") != "1" {
		first = rounds[1]
	}
	if string(tool.ParentSpanId) != string(first.SpanId) {
		t.Error("the tool's span is not its round's child")
	}
	want := map[string]string{"gen_ai.operation.name": "chat", "gen_ai.request.model": "fake-model", "gen_ai.provider.name": "fake",
		"gen_ai.response.finish_reasons": "tool_calls", "gen_ai.usage.input_tokens": "120", "gen_ai.usage.output_tokens": "7",
		"gen_ai.conversation.id": "sess-1", "keel.round.seq": "1", "keel.cost_usd": "double"}
	for k, v := range want {
		if got := attr(first, k); got != v {
			t.Errorf("round 1 %s = %q, want %q", k, got, v)
		}
	}
	for k, v := range map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "probe", "gen_ai.tool.call.id": "call_1",
		"keel.tool.outcome": "ok", "keel.permission.decision": "allow", "gen_ai.conversation.id": "sess-1"} {
		if got := attr(tool, k); got != v {
			t.Errorf("tool %s = %q, want %q", k, got, v)
		}
	}
	for k, v := range map[string]string{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "keel", "keel.task.stop_reason": "completed",
		"keel.task.rounds": "2", "keel.task.tool_calls": "1"} {
		if got := attr(task, k); got != v {
			t.Errorf("task %s = %q, want %q", k, got, v)
		}
	}
	if attr(sess, "keel.session.id") != "sess-1" {
		t.Errorf("session span: keel.session.id = %q", attr(sess, "keel.session.id"))
	}
	metrics := c.metricNames()
	for _, m := range []string{"gen_ai.client.token.usage", "gen_ai.client.operation.duration", "keel.tool.duration", "keel.round.duration", "keel.tasks", "keel.cost"} {
		if !metrics[m] {
			t.Errorf("metric %s was not sent (got %v)", m, metrics)
		}
	}
}

// Without LogContent no text the user or the model wrote leaves keel.
func TestLiveSendsNoContentByDefault(t *testing.T) {
	c := newCollector(t)
	e := startExporter(t, c, Options{})
	runTask(t, e, toolThenAnswer(`{"q":"needle-in-args"}`), "prompt-needle")
	for _, s := range c.allSpans() {
		for _, kv := range s.Attributes {
			v := anyText(kv.Value)
			for _, needle := range []string{"prompt-needle", "needle-in-args", "all done", "probed"} {
				if strings.Contains(v, needle) {
					t.Errorf("span %s attribute %s carries %q", s.Name, kv.Key, needle)
				}
			}
		}
	}
}

func TestLiveContentIsRedacted(t *testing.T) {
	c := newCollector(t)
	redact := func(s string) string { return strings.ReplaceAll(s, "sk-live-123456", "[REDACTED:KEY]") }
	e := startExporter(t, c, Options{LogContent: true, Redact: redact})
	runTask(t, e, toolThenAnswer(`{"q":"sk-live-123456"}`), "use sk-live-123456 please")
	spans := c.allSpans()
	task := one(t, spans, "invoke_agent keel")
	if in := attr(task, "gen_ai.input.messages"); !strings.Contains(in, "use [REDACTED:KEY] please") || !strings.Contains(in, `"role":"user"`) {
		t.Errorf("task input messages = %q", in)
	}
	if out := attr(task, "gen_ai.output.messages"); !strings.Contains(out, "all done") {
		t.Errorf("task output messages = %q", out)
	}
	tool := one(t, spans, "execute_tool probe")
	if a := attr(tool, "gen_ai.tool.call.arguments"); a != `{"q":"[REDACTED:KEY]"}` {
		t.Errorf("tool arguments = %q", a)
	}
	if r := attr(tool, "gen_ai.tool.call.result"); !strings.Contains(r, "probed") {
		t.Errorf("tool result = %q", r)
	}
	for _, s := range spans {
		for _, kv := range s.Attributes {
			if strings.Contains(anyText(kv.Value), "sk-live-123456") {
				t.Errorf("span %s attribute %s carries the secret", s.Name, kv.Key)
			}
		}
	}
}

// A session opened and closed without a prompt (the TUI started and
// quit) sends no span.
func TestSessionWithoutATaskSendsNothing(t *testing.T) {
	c := newCollector(t)
	e := startExporter(t, c, Options{})
	tr := e.Session(SessionInfo{Provider: "fake", Model: "m"})
	tr.End("sess-0")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if spans := c.allSpans(); len(spans) != 0 {
		t.Errorf("an empty session sent %v", names(spans))
	}
}
