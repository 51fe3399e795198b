package headless

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools"
)

// denyWrites is a permission policy refusing the write tool.
type denyWrites struct{}

func (denyWrites) Decide(tool string, _ json.RawMessage) tools.Decision {
	if tool == "write" {
		return tools.Decision{Verdict: tools.Deny, Reason: "writes are off in this test"}
	}
	return tools.Decision{Verdict: tools.Allow}
}
func (denyWrites) Grant(tools.Grant) {}

// streamRun runs a task with text, a tool call, a denied call and an
// answer, and returns its stream-json lines.
func streamRun(t *testing.T, partial bool) []map[string]any {
	t.Helper()
	s, _ := newSession(t, llmtest.Rounds(
		llmtest.Round{Text: "Let me look.", ToolCalls: []llmtest.Call{call("c1", "echo", `{"command":"ls"}`)}},
		llmtest.ToolRound(call("c2", "write", `{"path":"x.go","content":"package x"}`)),
		llmtest.TextRound("All done."),
	), func(o *agent.Options) {
		o.Permissions, o.SessionID = denyWrites{}, "s-test"
		run := func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Result{Output: "a.go b.go"}, nil
		}
		o.Tools = []tools.Tool{&fakeTool{name: "echo", class: tools.ReadOnly, run: run}, &fakeTool{name: "write", class: tools.Write, run: run}}
	})
	var out bytes.Buffer
	h := Headless{Format: FormatStreamJSON, Stdout: &out, Stderr: &bytes.Buffer{}, PartialMessages: partial,
		Session: Session{Cwd: "/w", Model: "fake-model", Tools: []string{"echo", "write"}}}
	if _, err := h.Run(context.Background(), s, "go"); err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line is not JSON: %v: %s", err, sc.Text())
		}
		lines = append(lines, l)
	}
	return lines
}

// fixture reads Claude Code's documented lines.
func fixture(t *testing.T) []map[string]any {
	t.Helper()
	data, err := os.ReadFile("testdata/claude_code_stream.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("fixture line: %v", err)
		}
		out = append(out, m)
	}
	return out
}

// kind names the form of a line for matching: its type, and for
// messages the type of their first content block.
func kind(l map[string]any) string {
	k, _ := l["type"].(string)
	if msg, ok := l["message"].(map[string]any); ok {
		if blocks, ok := msg["content"].([]any); ok && len(blocks) > 0 {
			b, _ := blocks[0].(map[string]any)
			k += "/" + fmt.Sprint(b["type"])
		}
	}
	return k
}

func TestStreamMatchesClaudeCodeShapes(t *testing.T) {
	lines := streamRun(t, false)
	if kind(lines[0]) != "system" || lines[0]["subtype"] != "init" {
		t.Fatalf("the first line is %v, want the system init line", lines[0])
	}
	if kind(lines[len(lines)-1]) != "result" {
		t.Fatalf("the last line is %v, want the result", lines[len(lines)-1])
	}
	for _, want := range fixture(t) {
		k := kind(want)
		var found bool
		for _, got := range lines {
			if kind(got) != k || (k == "system" && got["subtype"] != want["subtype"]) {
				continue
			}
			found = true
			if err := sameShape(k, want, got); err != nil {
				t.Errorf("%s: %v\nkeel: %v", k, err, got)
			}
			break
		}
		if !found {
			t.Errorf("keel wrote no %s line", k)
		}
	}
}

// sameShape checks that got has every key of want, recursively, each
// with a value of the same JSON kind (a null in want accepts anything).
func sameShape(path string, want, got any) error {
	switch w := want.(type) {
	case nil:
		return nil
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s is %T, want an object", path, got)
		}
		if strings.HasSuffix(path, "input") { // a tool's own arguments
			return nil
		}
		for k, wv := range w {
			if path == "result.modelUsage" { // keyed by model name
				for _, gv := range g {
					return sameShape(path+".*", wv, gv)
				}
				return fmt.Errorf("%s is empty", path)
			}
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("%s.%s is missing", path, k)
			}
			if err := sameShape(path+"."+k, wv, gv); err != nil {
				return err
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Errorf("%s is %T, want an array", path, got)
		}
		if len(w) > 0 && len(g) > 0 {
			return sameShape(path+"[0]", w[0], g[0])
		}
		if len(w) > 0 && path != "system.mcp_servers" && path != "system.slash_commands" {
			return fmt.Errorf("%s is empty", path)
		}
		return nil
	}
	if fmt.Sprintf("%T", want) != fmt.Sprintf("%T", got) {
		return fmt.Errorf("%s is %T (%v), want %T", path, got, got, want)
	}
	return nil
}

func TestStreamCarriesTheRunAsMessages(t *testing.T) {
	lines := streamRun(t, false)
	var texts, uses, results []string
	for _, l := range lines {
		if l["session_id"] != lines[0]["session_id"] || l["session_id"] == "" {
			t.Errorf("line %v lacks the session id %v", l, lines[0]["session_id"])
		}
		if l["type"] == "text" || l["type"] == "stream_event" {
			t.Errorf("a delta line without --include-partial-messages: %v", l)
		}
		msg, _ := l["message"].(map[string]any)
		blocks, _ := msg["content"].([]any)
		for _, b := range blocks {
			b := b.(map[string]any)
			switch b["type"] {
			case "text":
				texts = append(texts, b["text"].(string))
			case "tool_use":
				uses = append(uses, fmt.Sprintf("%s %v", b["name"], b["input"]))
			case "tool_result":
				results = append(results, fmt.Sprintf("%s %v", b["tool_use_id"], b["is_error"]))
			}
		}
	}
	if want := []string{"Let me look.", "All done."}; fmt.Sprint(texts) != fmt.Sprint(want) {
		t.Errorf("texts = %q, want %q", texts, want)
	}
	if want := "[echo map[command:ls] write map[content:package x path:x.go]]"; fmt.Sprint(uses) != want {
		t.Errorf("tool uses = %v, want %v", uses, want)
	}
	if want := "[c1 false c2 true]"; fmt.Sprint(results) != want {
		t.Errorf("tool results = %v, want %v", results, want)
	}
	res := lines[len(lines)-1]
	den := res["permission_denials"].([]any)
	if len(den) != 1 || fmt.Sprint(den[0]) != "map[reason:writes are off in this test tool_input:map[content:package x path:x.go] tool_name:write tool_use_id:c2]" {
		t.Errorf("permission_denials = %v", den)
	}
}

func TestPartialMessagesStreamTheText(t *testing.T) {
	var text strings.Builder
	for _, l := range streamRun(t, true) {
		if l["type"] != "stream_event" {
			continue
		}
		d := l["event"].(map[string]any)["delta"].(map[string]any)
		if d["type"] == "text_delta" {
			text.WriteString(d["text"].(string))
		}
	}
	if got := text.String(); got != "Let me look.All done." {
		t.Errorf("streamed text = %q", got)
	}
}
