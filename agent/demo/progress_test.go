package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llm"
)

func TestExtractWritesAModuleWithAFailingTest(t *testing.T) {
	dir := t.TempDir()
	if err := Extract(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"go.mod", "main.go", "README.md", codeFile, testFile} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Errorf("missing %s: %v", name, err)
		}
	}
	if !strings.HasPrefix(readFile(t, dir, "go.mod"), "module example.com/greet\n") {
		t.Error("go.mod does not declare example.com/greet")
	}
	if !strings.Contains(readFile(t, dir, codeFile), buggyLine+"\n") {
		t.Fatal("the scripted edit's old_string is not in the file")
	}
	needGo(t)
	if ok, out := goTest(t, dir); ok || !strings.Contains(out, "Hello, Ann, Bob and Cy!") {
		t.Errorf("go test before the fix: ok=%v\n%s", ok, out)
	}
}

func TestInjected(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"fix the failing test", false},
		{"Note: this is my prompt", true}, // a person may start so; keel's re-read note does
		{"[Checkpoint: a routine pause every few tool calls; nothing is wrong.]\nIn the last 4 tool calls", true},
		{"Your plan still has open steps (\"Verify\").", true},
		{"edit_file has failed 3 times in a row with the same message", true},
		{"why has it failed?", false},
		{"[keel compacted the earlier conversation to fit the context window.]", true},
	}
	for _, tt := range tests {
		if got := injected(tt.text); got != tt.want {
			t.Errorf("injected(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		out  string
		code int
		ok   bool
	}{
		{"ok example.com/greet\n[exit code 0, 0.4s]", 0, true},
		{"--- FAIL\n[exit code 1, 0.3s]", 1, true},
		{"bash: go: command not found\n[exit code 127, 0.0s]", 127, true},
		{"[timed out after 2m0s; process group killed.]", 0, false},
	}
	for _, tt := range tests {
		if code, ok := exitCode(tt.out); code != tt.code || ok != tt.ok {
			t.Errorf("exitCode(%q) = %d, %v", tt.out, code, ok)
		}
	}
}

// A cancelled call is done again; a missing go command skips the checks.
func TestProgressFromHistory(t *testing.T) {
	call := func(id, name, args string) llm.Message {
		return llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: name, Arguments: args}}}
	}
	result := func(id, out string) llm.Message { return llm.Message{Role: llm.RoleTool, ToolCallID: id, Content: out} }
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: "go"},
		call("1", "update_plan", `{"steps":[{"title":"a","status":"active"}]}`), result("1", "plan updated: 1 steps"),
		call("2", "list_dir", `{"path":"."}`), result("2", "cancelled: keel stopped before this tool call ran"),
	}
	if p := readProgress(msgs); !p.planned || p.listed || p.closed {
		t.Errorf("after a cancelled list: %+v", p)
	}
	msgs = append(msgs, call("3", "run_command", `{"command":"go test ./..."}`), result("3", "bash: line 1: go: command not found\n[exit code 127, 0.0s]"))
	p := readProgress(msgs)
	if !p.noGo || !p.tested || p.testsOK {
		t.Errorf("after go is missing: %+v", p)
	}
	if r := p.next(); len(r.calls) == 0 || r.calls[0].name != "list_dir" {
		t.Errorf("next after a cancelled list: %+v", r)
	}
}

func TestTourOnlyOnScreen(t *testing.T) {
	done := progress{planned: true, listed: true, readCode: true, readTest: true, tested: true,
		edited: true, verified: true, verifyOK: true, closed: true}
	if r := done.next(); !strings.HasSuffix(r.text, tourText) || len(r.calls) != 0 {
		t.Errorf("TUI final answer: %+v", r)
	}
	done.headless = true
	if r := done.next(); strings.Contains(r.text, "What you just saw") {
		t.Errorf("headless final answer has the tour: %q", r.text)
	}
}
