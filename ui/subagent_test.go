package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/hooks"
	"github.com/keel-dev/keel/agent/llm"
)

// TestSubagentCardShowsItLive: a task call's line becomes its subagent's
// card: live state and last call while it runs, how it ended after, and
// every call once expanded.
func TestSubagentCardShowsItLive(t *testing.T) {
	m := newTestModel(t, 100, 30)
	typeText(m, "look around")
	send(m, press("enter"))
	args := `{"description":"find the tests","prompt":"where are the tests?"}`
	read := agent.ToolFinished{CallID: "c1", Name: "glob", Args: `{"pattern":"*_test.go"}`, Duration: 3 * time.Millisecond}
	send(m, events(agent.ToolStarted{CallID: "t1", Name: agent.TaskToolName, Args: args},
		agent.SubagentStarted{CallID: "t1", Agent: "explorer", Description: "find the tests"},
		agent.SubagentEvent{CallID: "t1", Agent: "explorer", Event: agent.StateChanged{To: agent.StateExecuting}},
		agent.SubagentEvent{CallID: "t1", Agent: "explorer", Event: read},
		agent.SubagentEvent{CallID: "t1", Agent: "explorer", Event: agent.UsageUpdated{Task: llm.Usage{PromptTokens: 1200, CompletionTokens: 40}}}))
	s := plain(m)
	if !strings.Contains(s, "task find the tests") || !strings.Contains(s, "subagent explorer · ran glob · 1 round · 1.2k tokens") ||
		!strings.Contains(s, "✓ glob *_test.go") {
		t.Fatalf("the running card:\n%s", s)
	}
	cost := 0.0012
	send(m, events(agent.SubagentFinished{CallID: "t1", Agent: "explorer", Reason: agent.StopCompleted, CostUSD: &cost,
		Summary: agent.TaskSummary{Turns: 2, ToolCalls: 1, Usage: llm.Usage{PromptTokens: 2400, CompletionTokens: 80}}},
		agent.ToolFinished{CallID: "t1", Name: agent.TaskToolName, Args: args, Output: "[subagent explorer: completed]\n\nin ui/"}))
	s = plain(m)
	if !strings.Contains(s, "subagent explorer · completed · 2 rounds · 1 tool call · 2.5k tokens · $0.0012") || !strings.Contains(s, "1 call (ctrl+o expands)") {
		t.Fatalf("the finished card:\n%s", s)
	}
	send(m, press("alt+up"), press("ctrl+o"))
	if s = plain(m); !strings.Contains(s, "✓ glob *_test.go") || !strings.Contains(s, "in ui/") {
		t.Fatalf("the expanded card shows its calls and answer:\n%s", s)
	}
}

func TestHookRunsShowAsLines(t *testing.T) {
	m := newTestModel(t, 100, 30)
	send(m, events(agent.HookRan{Event: hooks.PreToolUse, Command: "scripts/check.sh", Tool: "write_file", ExitCode: 2,
		Duration: 12 * time.Millisecond, Decision: hooks.DecisionBlock, Reason: "no writes to vendor/"}))
	if s := plain(m); !strings.Contains(s, "⚑ PreToolUse hook scripts/check.sh (write_file): blocked, exit 2, 12ms: no writes to vendor/") {
		t.Fatalf("no hook line:\n%s", s)
	}
}

// TestASubagentsQuestionNamesIt: a permission question from a subagent
// says whose it is.
func TestASubagentsQuestionNamesIt(t *testing.T) {
	m := newTestModel(t, 100, 30)
	go func() {
		_, _ = m.opts.Bridge.Ask(context.Background(), agent.PermissionRequest{Tool: "write_file", Summary: "notes.md", Agent: "scribe"})
	}()
	deliver(t, m)
	if s := plain(m); !strings.Contains(s, "Subagent scribe asks: allow write_file?") {
		t.Fatalf("the question does not name the subagent:\n%s", s)
	}
}
