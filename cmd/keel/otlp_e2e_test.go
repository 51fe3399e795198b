package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// otlpTask is a headless task of two rounds: a read, then the answer.
func otlpTask(t *testing.T) *llmtest.Server {
	return llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{ID: "call_read", Name: "read_file", Args: `{"path":"main.go"}`}),
		llmtest.TextRound("main.go holds an empty main."),
	))
}

// checkTree checks the spans of one headless task: session → task →
// two rounds, the first with the read under it, and the GenAI
// attributes; it returns the spans by name.
func checkTree(t *testing.T, spans []jaegerSpan, id string) map[string][]jaegerSpan {
	t.Helper()
	by := map[string][]jaegerSpan{}
	for _, s := range spans {
		by[s.OperationName] = append(by[s.OperationName], s)
	}
	sess, task, tool, rounds := by["keel session"], by["invoke_agent keel"], by["execute_tool read_file"], by["chat gpt-4.1-mini"]
	if len(sess) != 1 || len(task) != 1 || len(tool) != 1 || len(rounds) != 2 {
		t.Fatalf("spans %v, want one session, one task, two chat rounds and one read_file", keys(by))
	}
	if task[0].parent() != sess[0].SpanID || sess[0].parent() != "" {
		t.Error("the task is not the session's child, or the session is not the root")
	}
	first := rounds[0]
	if first.tag("keel.round.seq") != "1" {
		first = rounds[1]
	}
	for _, r := range rounds {
		if r.parent() != task[0].SpanID {
			t.Error("a round is not the task's child")
		}
	}
	if tool[0].parent() != first.SpanID {
		t.Error("the read is not its round's child")
	}
	for k, v := range map[string]string{"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4.1-mini", "gen_ai.provider.name": "openai",
		"gen_ai.response.finish_reasons": `["tool_calls"]`, "gen_ai.usage.input_tokens": "100", "gen_ai.usage.output_tokens": "10",
		"gen_ai.conversation.id": id} {
		if got := first.tag(k); got != v {
			t.Errorf("round 1's %s = %q, want %q", k, got, v)
		}
	}
	for k, v := range map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "read_file", "gen_ai.tool.call.id": "call_read",
		"keel.tool.outcome": "ok", "keel.permission.decision": "allow", "gen_ai.conversation.id": id} {
		if got := tool[0].tag(k); got != v {
			t.Errorf("the read's %s = %q, want %q", k, got, v)
		}
	}
	for k, v := range map[string]string{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "keel", "keel.task.stop_reason": "completed"} {
		if got := task[0].tag(k); got != v {
			t.Errorf("the task's %s = %q, want %q", k, got, v)
		}
	}
	for _, s := range spans {
		for _, tag := range s.Tags {
			if v := tag.Value; strings.Contains(toString(v), "what is in main.go") || strings.Contains(toString(v), "func main") {
				t.Errorf("span %s tag %s carries content without log_content", s.OperationName, tag.Key)
			}
		}
	}
	return by
}

func keys(m map[string][]jaegerSpan) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"×"+strconv.Itoa(len(v)))
	}
	return out
}

func toString(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestOTLPHeadlessTaskReachesJaeger(t *testing.T) {
	j := startJaeger(t)
	srv := otlpTask(t)
	out, errOut, code := runKeelEnv(t, t.TempDir(), []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + j.otlp}, srv, project(t), "",
		"-p", "what is in main.go?", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "telemetry: sending traces and metrics to "+j.otlp) {
		t.Errorf("stderr does not say where telemetry goes: %q", errOut)
	}
	id := sessionID(t, out)
	spans, service := j.trace(t, "gen_ai.conversation.id", id, 5)
	if service != "keel" {
		t.Errorf("service.name = %q", service)
	}
	checkTree(t, spans, id)
}

func TestOTLPLogExportSendsAStoredSession(t *testing.T) {
	j := startJaeger(t)
	home := t.TempDir()
	out, errOut, code := runKeelEnv(t, home, nil, otlpTask(t), project(t), "", "-p", "what is in main.go?", "--output-format", "json")
	if code != 0 || strings.Contains(errOut, "telemetry") {
		t.Fatalf("exit %d (telemetry must be off without its settings): %s", code, errOut)
	}
	id := sessionID(t, out)
	out, errOut, code = runKeelEnv(t, home, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + j.otlp}, nil, project(t), "", "log", "export", "--otlp", id[:8])
	if code != 0 || !strings.Contains(out, "sent 1 session (5 spans) to "+j.otlp) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	spans, _ := j.trace(t, "gen_ai.conversation.id", id, 5)
	by := checkTree(t, spans, id)
	if src := by["keel session"][0].tag("keel.session.source"); src != "datalog" {
		t.Errorf("keel.session.source = %q", src)
	}
	// Sending everything sends it again, with a second session.
	out2, _, _ := runKeelEnv(t, home, nil, otlpTask(t), project(t), "", "-p", "again", "--output-format", "json")
	id2 := sessionID(t, out2)
	out, errOut, code = runKeelEnv(t, home, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + j.otlp}, nil, project(t), "", "log", "export", "--otlp")
	if code != 0 || !strings.Contains(out, "sent 2 sessions (10 spans)") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	j.trace(t, "gen_ai.conversation.id", id2, 5)
}

func TestOTLPExportToADeadCollectorFailsInOneSentence(t *testing.T) {
	home := t.TempDir()
	out, errOut, code := runKeelEnv(t, home, nil, otlpTask(t), project(t), "", "-p", "hi", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	id := sessionID(t, out)
	dead := "http://" + freePorts(t, 1)[0]
	_, errOut, code = runKeelEnv(t, home, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + dead}, nil, project(t), "", "log", "export", "--otlp", id)
	if code == 0 || !strings.Contains(errOut, "did not reach the collector at "+dead) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// A dead collector costs a headless run nothing but a warning.
func TestOTLPDeadCollectorDoesNotFailTheTask(t *testing.T) {
	dead := "http://" + freePorts(t, 1)[0]
	dir := project(t)
	cfg := filepath.Join(dir, "keel.toml")
	if err := os.WriteFile(cfg, []byte("[telemetry]\nenabled = true\nendpoint = \""+dead+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runKeelEnv(t, t.TempDir(), nil, otlpTask(t), dir, "", "--config", cfg, "-p", "hi")
	if code != 0 || !strings.Contains(out, "empty main") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "did not take") || !strings.Contains(errOut, "span(s) were not sent to "+dead) {
		t.Errorf("stderr does not warn about the collector: %q", errOut)
	}
}
