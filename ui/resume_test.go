package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/ui/dialog"
)

// Resumed transcripts are rebuilt from a real datalog: a task whose
// first round had a denied and a failed command and a checkpoint, and
// whose next round answered the checkpoint.

const (
	resumeCheckpointMsg = "Scheduled checkpoint after 2 tool calls.\n1. Restate the original task in one sentence.\n2. What did the last 2 calls prove or rule out?"
	resumeReply         = "Task: make the retry tests pass. The run proved TestRetry fails on the last attempt. Next: read retry.go."
	resumeGoTest        = "ok  \tgithub.com/keel-dev/keel/config\t0.21s\n--- FAIL: TestRetry (0.00s)\n    retry_test.go:42: want 3 attempts, got 2\nFAIL\nFAIL\tgithub.com/keel-dev/keel/agent/llm\t0.31s\nFAIL\n[exit code 1, 2.3s]"
)

// resumeCall is a call the model made and the datalog row of its outcome.
func resumeCall(id, name, args, result string, isErr bool, perm string, d time.Duration) (llm.ToolCall, datalog.ToolCall) {
	return llm.ToolCall{ID: id, Name: name, Arguments: args},
		datalog.ToolCall{CallID: id, Name: name, Arguments: args, Result: result, IsError: isErr, Permission: perm, Duration: d}
}

// resumeRounds are the session's rounds as the agent's Recorder writes them.
func resumeRounds(sid string) []datalog.RoundRecord {
	c1, r1 := resumeCall("c1", "run_command", `{"command":"rm -rf build"}`, "permission denied: the user denied this call", true, "deny", 0)
	c2, r2 := resumeCall("c2", "run_command", `{"command":"go test ./..."}`, resumeGoTest, true, "allow", 2300*time.Millisecond)
	c3, r3 := resumeCall("c3", "read_file", `{"path":"agent/llm/retry.go"}`, "1\tpackage llm", false, "allow", 3*time.Millisecond)
	c4, r4 := resumeCall("c4", "edit_file", `{"path":"agent/llm/retry.go","old_string":"attempt > p.Max","new_string":"attempt >= p.Max"}`, "updated agent/llm/retry.go (3 lines)", false, "allow", 9*time.Millisecond)
	r2.Index, r3.Index, r4.Index = 1, 0, 1
	r1.DecidedBy, r2.DecidedBy = datalog.DecidedByUser, datalog.DecidedByRule // the user denied c1 in the dialog
	figs, _ := json.Marshal(map[string]int{"delta": 2, "cadence": 2, "reads": 0, "edits": 0, "failed": 2})
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rnd := func(seq int) datalog.Round {
		return datalog.Round{SessionID: sid, Seq: seq, TaskSeq: 1, FinishReason: "tool_calls", Started: at}
	}
	return []datalog.RoundRecord{
		{Round: rnd(1),
			Messages: []llm.Message{{Role: llm.RoleUser, Content: "Run the tests and fix what fails"},
				{Role: llm.RoleAssistant, Content: "Cleaning first, then the tests.", ToolCalls: []llm.ToolCall{c1, c2}},
				{Role: llm.RoleTool, ToolCallID: "c1", Content: r1.Result}, {Role: llm.RoleTool, ToolCallID: "c2", Content: r2.Result}},
			ToolCalls:     []datalog.ToolCall{r1, r2},
			Interventions: []datalog.Intervention{{Kind: "reflection", AtToolCall: 2, Figures: figs, Message: resumeCheckpointMsg, Reply: resumeReply}},
			Transitions:   []datalog.StateTransition{{From: "observing", To: "reflecting", Detail: "checkpoint after 2 tool calls (cadence 2): 0 reads, 0 edits, 2 failed", At: at}}},
		{Round: rnd(2),
			Messages: []llm.Message{{Role: llm.RoleUser, Content: resumeCheckpointMsg},
				{Role: llm.RoleAssistant, Content: resumeReply, ToolCalls: []llm.ToolCall{c3, c4}},
				{Role: llm.RoleTool, ToolCallID: "c3", Content: r3.Result}, {Role: llm.RoleTool, ToolCallID: "c4", Content: r4.Result}},
			ToolCalls: []datalog.ToolCall{r3, r4},
			FileChanges: []datalog.FileChange{{TaskSeq: 1, ToolCallID: "c4", Path: "/p/agent/llm/retry.go", Existed: true, Mode: 0o644,
				Before: []byte("func next(attempt int) {\n\tif attempt > p.Max {\n\t\treturn -1\n}\n"),
				After:  []byte("func next(attempt int) {\n\tif attempt >= p.Max {\n\t\treturn -1\n}\n")}}},
	}
}

// resumedModel writes the session to a real datalog, loads it as keel -c
// does (history, transcript) and opens the UI on it at w × h.
func resumedModel(t *testing.T, w, h int) *Model {
	t.Helper()
	return resumedModelWindow(t, w, h, 128000)
}

// resumedModelWindow is resumedModel with a context window of window tokens.
func resumedModelWindow(t *testing.T, w, h, window int) *Model {
	t.Helper()
	ctx := context.Background()
	db, sid := testDatalog(t, "/p")
	for _, r := range resumeRounds(sid) {
		if err := db.WriteRound(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.EndTask(ctx, sid, 2, []datalog.StateTransition{{From: "thinking", To: "halted", Detail: "max_turns", At: time.Now()}}, nil, "max_turns", datalog.Totals{Rounds: 2}); err != nil {
		t.Fatal(err)
	}
	s := resumedSession(t, db, sid)
	d, err := db.LoadTranscript(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	dark := true
	return New(Options{Session: s, Bridge: dialog.NewBridge(), Resumed: d, ProviderLabel: "openai", Model: "gpt-test",
		ContextWindow: window, Cadence: 2, Dark: &dark, Width: w, Height: h})
}

// TestResumedContextFigureAtOnce: a resumed session's context is full
// already; the bar estimates it at once instead of "ctx 0%" until the
// first round (a new user's trial of keel -c).
func TestResumedContextFigureAtOnce(t *testing.T) {
	m := resumedModelWindow(t, 120, 40, 2000)
	got := plain(m)
	i := strings.Index(got, "ctx ")
	if i < 0 {
		t.Fatalf("no context figure:\n%s", got)
	}
	if pct := strings.Fields(got[i+4:])[0]; pct == "0%" {
		t.Errorf("a resumed session shows ctx %s before its first round", pct)
	}
}

// TestGoldenResumed: the resumed transcript as it looked live, at the
// golden sizes; the 80-column screen is scrolled to show each part.
func TestGoldenResumed(t *testing.T) {
	for _, sz := range sizes {
		name := fmt.Sprintf("resumed_%dx%d", sz[0], sz[1])
		t.Run(name, func(t *testing.T) {
			golden(t, resumedModel(t, sz[0], sz[1]), name)
		})
	}
	t.Run("resumed_calls_80x24", func(t *testing.T) {
		m := resumedModel(t, 80, 24)
		send(m, press("home"))
		golden(t, m, "resumed_calls_80x24")
	})
}

// TestResumedTranscript checks what the goldens show, in words.
func TestResumedTranscript(t *testing.T) {
	screen := plain(resumedModel(t, 120, 80))
	for _, want := range []string{
		"› Run the tests and fix what fails",
		"⊘ run_command rm -rf build  denied",
		"reason: permission denied: the user denied this call",
		"· denied run_command   ", // the dialog's note, as live (no reason typed)
		"✗ run_command go test ./...  exit 1 · 2.3s",
		"checkpoint  at tool call 2",
		"why: keel takes stock every 2 tool calls",
		"answer:",
		"✓ read_file agent/llm/retry.go  3ms",
		"✓ edit_file agent/llm/retry.go  9ms", // with its diff, rebuilt from the file change
		"--- a/agent/llm/retry.go",
		"+    if attempt >= p.Max {",
		"max_turns — send a prompt to continue",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the resumed screen lacks %q:\n%s", want, screen)
		}
	}
	for _, bad := range []string{"› Scheduled checkpoint", "✓ run_command", "0ms"} {
		if strings.Contains(screen, bad) {
			t.Errorf("the resumed screen shows %q:\n%s", bad, screen)
		}
	}
}
