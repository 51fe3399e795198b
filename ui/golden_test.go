package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/browser"
	"github.com/keel-dev/keel/ui/shellcmd"
	"github.com/keel-dev/keel/ui/transcript"
)

// sizes are the golden screen sizes.
var sizes = [][2]int{{80, 24}, {160, 48}}

// scenarios build each golden screen on a fresh model.
var scenarios = map[string]func(t *testing.T, m *Model){
	"empty":      func(*testing.T, *Model) {},
	"streaming":  scenarioStreaming,
	"tool":       scenarioToolExpanded,
	"diff":       scenarioDiff,
	"checkpoint": scenarioCheckpoint,
	"plan":       scenarioPlan,
	"permission": scenarioPermission,
	"browser":    scenarioBrowser,
	"rounds":     scenarioRounds,
	"editor":     scenarioEditor,
	"welcome":    nil, // built without a session
}

// scenarioOptions are what a scenario's model is made with besides the
// test session.
var scenarioOptions = map[string]Options{
	"editor": {Workspace: &fakeWorkspace{files: []string{"README.md", "ui/model.go", "ui/modal.go", "ui/model_test.go", "agent/model_options.go"},
		contents: map[string]string{"ui/model.go": "package ui\n", "README.md": strings.Repeat("keel\n", 300)}}},
}

func TestGolden(t *testing.T) {
	for name, build := range scenarios {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s_%dx%d", name, sz[0], sz[1]), func(t *testing.T) {
				var m *Model
				if build == nil {
					dark := true
					m = New(Options{Width: sz[0], Height: sz[1], Dark: &dark})
				} else {
					m = newTestModelWith(t, sz[0], sz[1], scenarioOptions[name])
					build(t, m)
				}
				golden(t, m, fmt.Sprintf("%s_%dx%d", name, sz[0], sz[1]))
			})
		}
	}
}

func prompt(m *Model, text string) {
	typeText(m, text)
	send(m, press("enter"))
}

func scenarioStreaming(_ *testing.T, m *Model) {
	prompt(m, "Explain the retry policy")
	send(m, events(agent.StateChanged{From: agent.StateIdle, To: agent.StateThinking}))
	send(m, events(agent.ReasoningDelta{Text: "The user wants the retry policy.\nLook at backoff."}))
	send(m, events(agent.TextDelta{Text: "## Retry policy\n\nRequests that fail with **429** wait for the `Retry-After` header.\n\n"}))
	send(m, events(agent.TextDelta{Text: "```go\nfor attempt := 0; attempt < 5; attempt++ {\n\twait(backoff(attempt))\n"}))
	send(m, transcript.FrameMsg{})
}

func scenarioToolExpanded(_ *testing.T, m *Model) {
	prompt(m, "Run the tests")
	send(m, events(
		agent.StateChanged{To: agent.StateActing},
		agent.ToolStarted{CallID: "c1", Name: "run_command", Args: `{"command":"go test ./..."}`},
		agent.ToolFinished{CallID: "c1", Name: "run_command", Args: `{"command":"go test ./..."}`,
			Output:  "ok  \tgithub.com/keel-dev/keel/config\t0.21s\n--- FAIL: TestRetry (0.00s)\n    retry_test.go:42: want 3 attempts, got 2\nFAIL",
			IsError: true, ExitCode: intp(1), Duration: 2300 * time.Millisecond},
		agent.ToolStarted{CallID: "c2", Name: "read_file", Args: `{"path":"agent/llm/retry.go"}`},
		agent.ToolFinished{CallID: "c2", Name: "read_file", Args: `{"path":"agent/llm/retry.go"}`, Output: "1\tpackage llm", Duration: 3 * time.Millisecond},
	))
	send(m, press("alt+up"), press("ctrl+o")) // select the command and expand it
}

func scenarioDiff(_ *testing.T, m *Model) {
	prompt(m, "Fix the off-by-one")
	diff := "--- a/agent/llm/retry.go\n+++ b/agent/llm/retry.go\n@@ -40,7 +40,7 @@ func (p Policy) Next(attempt int) time.Duration {\n \tif attempt < 0 {\n \t\treturn 0\n \t}\n-\tif attempt > p.Max {\n+\tif attempt >= p.Max {\n \t\treturn -1\n \t}\n"
	send(m, events(
		agent.ToolStarted{CallID: "e1", Name: "edit_file", Args: `{"path":"agent/llm/retry.go","old_string":"a","new_string":"b"}`},
		agent.ToolFinished{CallID: "e1", Name: "edit_file", Args: `{"path":"agent/llm/retry.go"}`, Output: "edited", Diff: diff, Duration: 12 * time.Millisecond},
		agent.ToolStarted{CallID: "c1", Name: "run_command", Args: `{"command":"go test ./agent/llm"}`},
		agent.ToolFinished{CallID: "c1", Name: "run_command", Args: `{"command":"go test ./agent/llm"}`, Output: "ok", ExitCode: intp(0), Duration: 1500 * time.Millisecond},
		agent.TextDelta{Text: "Fixed: `attempt >= p.Max` stops at the limit. The tests pass."},
		agent.TaskStopped{Reason: agent.StopCompleted},
	))
}

func scenarioCheckpoint(_ *testing.T, m *Model) {
	prompt(m, "Find why the cache misses")
	send(m, events(
		agent.ToolStarted{CallID: "r1", Name: "grep", Args: `{"pattern":"cache\\.Get"}`},
		agent.ToolFinished{CallID: "r1", Name: "grep", Args: `{"pattern":"cache\\.Get"}`, Output: "3 matches", Duration: 40 * time.Millisecond},
		agent.UsageUpdated{Session: llm.Usage{PromptTokens: 48200, CompletionTokens: 3100}, ContextTokens: 41000, ContextWindow: 128000, ToolCalls: 10, NextCheckpointIn: 10},
		agent.InterventionFired{Intervention: agent.Intervention{Seq: 1, Kind: "reflection", AtToolCall: 10,
			Why:     "checkpoint after 10 tool calls (cadence 10): 8 reads, 0 edits, 1 failed",
			Message: "Scheduled checkpoint after 10 tool calls.\n1. Restate the original task in one sentence.\n2. What did the last 10 calls prove or rule out?\n3. What is the next concrete output, and how many calls away is it?",
			Action:  "inject", Figures: map[string]int{"delta": 10, "cadence": 10, "reads": 8, "edits": 0, "failed": 1}}},
		agent.InterventionAnswered{Seq: 1, Text: "Task: find the cache misses. Ruled out eviction. Next: edit cache.go to key by path, 1 call away."},
		agent.InterventionFired{Intervention: agent.Intervention{Seq: 2, Kind: "reread", AtToolCall: 11,
			Why: "cache.go lines 1-80 were already read at call 3", Message: "You already read cache.go lines 1-80 (call 3).", Action: "inject",
			Figures: map[string]int{"from": 1, "to": 80, "times": 2}}},
	))
}

func samplePlan() agent.Plan {
	return agent.Plan{Goal: "Make the datalog browser open a 1,000-round session in under 100 ms", Strategy: "measure first, then page the rounds",
		Status: agent.PlanActive, Attempt: 1, Steps: []agent.Step{
			{Title: "Write a benchmark for LoadSession", Status: agent.StepCompleted},
			{Title: "Load rounds in pages", Status: agent.StepFailed, Note: "the loader needs one snapshot for all tables"},
			{Title: "Page through LoadRounds", Status: agent.StepActive},
			{Title: "Run the benchmark again", Status: agent.StepPending},
			{Title: "Drop the old loader", Status: agent.StepSkipped, Note: "kept for keel log show"},
		}}
}

func scenarioPlan(_ *testing.T, m *Model) {
	prompt(m, "Speed up the browser")
	send(m, events(
		agent.PlanChanged{Plan: samplePlan()},
		agent.ToolStarted{CallID: "b1", Name: "run_command", Args: `{"command":"go test -bench LoadSession ./agent/datalog"}`},
		agent.ToolFinished{CallID: "b1", Name: "run_command", Args: `{"command":"go test -bench LoadSession ./agent/datalog"}`, ExitCode: intp(0), Output: "BenchmarkLoadSession 35 ms/op", Duration: 4 * time.Second},
		agent.UsageUpdated{Session: llm.Usage{PromptTokens: 9000, CompletionTokens: 800}, ContextTokens: 30000, ContextWindow: 128000, ToolCalls: 1, NextCheckpointIn: 9},
	))
}

func scenarioPermission(t *testing.T, m *Model) {
	prompt(m, "Clean the build")
	for _, req := range []agent.PermissionRequest{
		{CallID: "p1", Tool: "run_command", Args: `{"command":"rm -rf ./build && make"}`, Summary: "rm -rf ./build && make",
			Reason: "destructive command", Grant: "run_command: rm -rf ./build*", Destructive: true},
		{CallID: "p2", Tool: "edit_file", Args: `{"path":"Makefile","old_string":"all: build","new_string":"all: clean build"}`, Summary: "Makefile", Grant: "edit_file in the workspace"},
	} {
		askPending(t, m, req)
	}
}

// askPending asks the bridge as the agent does, on a goroutine that waits
// until the test ends, and delivers the question to the model.
func askPending(t *testing.T, m *Model, req agent.PermissionRequest) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = m.opts.Bridge.Ask(ctx, req) // answered or withdrawn when the test ends
	}()
	t.Cleanup(func() { cancel(); <-done })
	deliver(t, m)
}

// scenarioEditor: a !command's output, a prompt sent with a mentioned
// file, and the input holding a chip while @ lists files.
func scenarioEditor(_ *testing.T, m *Model) {
	id := m.trackShell("go test ./ui", func() {})
	out := "=== RUN   TestGolden\n" + strings.Repeat("--- PASS: TestGolden/case (0.00s)\n", 12) + "PASS\nok  \tgithub.com/keel-dev/keel/ui\t0.412s\n"
	send(m, shellcmd.DoneMsg{ID: id, Result: tools.Result{Output: out, ExitCode: intp(0)}, Duration: 1400 * time.Millisecond})
	typeRun(m, "summarise @READ")
	pressRun(m, "tab")
	send(m, press("enter"))
	typeRun(m, "explain @ui/model.go")
	pressRun(m, "tab")
	typeRun(m, "next to @mod")
}

var browseAt = time.Date(2025, 11, 20, 9, 30, 0, 0, time.UTC)

func sampleSessions() []datalog.Session {
	at := browseAt
	return []datalog.Session{
		{ID: "0193a1b2c3d4e5f6", Provider: "openai", Model: "gpt-4.1", FirstPrompt: "Fix the retry off-by-one", Started: at, StopReason: "completed", Totals: datalog.Totals{Rounds: 12}},
		{ID: "0193a0ffeeddccbb", Provider: "ollama", Model: "qwen2.5-coder", FirstPrompt: "Add a --json flag to keel log", Started: at.Add(-26 * time.Hour), StopReason: "loop_detected", Totals: datalog.Totals{Rounds: 40}},
	}
}

func scenarioBrowser(_ *testing.T, m *Model) {
	m.browser = browser.New(m.keys.Browser)
	send(m, browser.SessionsMsg{Sessions: sampleSessions()})
}

func scenarioRounds(t *testing.T, m *Model) {
	scenarioBrowser(t, m)
	at := browseAt
	detail := &datalog.SessionDetail{Session: sampleSessions()[0], Rounds: []*datalog.RoundDetail{
		{Round: datalog.Round{Seq: 1, TaskSeq: 1, Duration: 2100 * time.Millisecond, TokensIn: 5200, TokensOut: 310, FinishReason: "tool_calls", Started: at},
			ToolCalls: []datalog.ToolCall{{Name: "read_file", Arguments: `{"path":"agent/llm/retry.go"}`, Duration: 2 * time.Millisecond}}},
		{Round: datalog.Round{Seq: 2, TaskSeq: 1, Duration: 3 * time.Second, TokensIn: 6100, TokensOut: 420, FinishReason: "tool_calls", Started: at},
			ToolCalls:     []datalog.ToolCall{{Name: "edit_file", Arguments: `{"path":"agent/llm/retry.go"}`, Duration: 9 * time.Millisecond}},
			Interventions: []datalog.Intervention{{Kind: "verify", AtToolCall: 2}},
			Plans:         []datalog.PlanSnapshot{{Attempt: 0, Status: "active"}}},
		{Round: datalog.Round{Seq: 3, TaskSeq: 1, Duration: 1200 * time.Millisecond, TokensIn: 6500, TokensOut: 90, FinishReason: "stop", Started: at}},
	}}
	send(m, browser.DetailMsg{Detail: detail})
}
