package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/ui/dialog"
)

// The demo's input hint describes the story until it has run, then says
// how to quit (issue 32).
func TestDemoHintAfterTheStory(t *testing.T) {
	m := newTestModelWith(t, 120, 30, Options{Demo: true})
	if !strings.Contains(plain(m), "the demo model fixes a failing test") {
		t.Fatalf("the demo's first hint is missing:\n%s", plain(m))
	}
	m.running = true
	send(m, events(agent.TaskStopped{Reason: agent.StopCompleted}))
	got := plain(m)
	if strings.Contains(got, "fixes a failing test in a minute") || !strings.Contains(got, "The demo has run") {
		t.Fatalf("after the story the hint still describes it:\n%s", got)
	}
	// At 80 columns the hint shows whole (a new user's trial: "in about …").
	if got := plain(newTestModelWith(t, 80, 24, Options{Demo: true})); !strings.Contains(got, demoHint) {
		t.Fatalf("the demo's hint is cut at 80 columns:\n%s", got)
	}
}

// The welcome screen keeps the config file's path whole at 80 columns
// (issue 32: it wrapped at a hyphen, as if the path had a line break).
func TestWelcomeKeepsThePathWhole(t *testing.T) {
	dark := true
	path := "/tmp/keel-new-user-home/.config/keel/config.toml"
	m := New(Options{Bridge: dialog.NewBridge(), Dark: &dark, Width: 80, Height: 24, ConfigPath: path})
	if got := plain(m); !strings.Contains(got, path) {
		t.Fatalf("the path is cut:\n%s", got)
	}
	// A new user's trial: with an OpenAI-compatible server, the screen
	// named the key only, not where the server is.
	if got := plain(m); !strings.Contains(got, "export OPENAI_BASE_URL=https://host/v1") {
		t.Fatalf("the welcome screen does not say how to point keel at another service:\n%s", got)
	}
}

// /compact's event lowers the context figure at once (issue 32: it stayed
// until the next round).
func TestCompactLowersTheContextFigure(t *testing.T) {
	m := newTestModel(t, 120, 30)
	send(m, events(agent.UsageUpdated{ContextTokens: 64000, ContextWindow: 128000}))
	if !strings.Contains(plain(m), "ctx 50%") {
		t.Fatalf("before:\n%s", plain(m))
	}
	send(m, events(agent.ContextCompacted{TokensBefore: 60000, TokensAfter: 4000}))
	if got := plain(m); !strings.Contains(got, "ctx 6%") {
		t.Fatalf("after /compact the figure did not drop:\n%s", got)
	}
}

// A checkpoint's card settles live (issue 32): its answer is the reply
// the model wrote right after it, rendered as markdown and shown once
// (in the card, not again below it); a checkpoint answered by more calls
// says "not answered", and the task's final answer stays out of it.
func TestCheckpointCardSettlesLive(t *testing.T) {
	cp := agent.Intervention{Seq: 1, Kind: "reflection", AtToolCall: 3, Message: "restate the task", Action: "inject"}
	call := []llm.ToolCall{{ID: "c9", Name: "read_file", Arguments: `{"path":"pool.go"}`}}
	reply := "**Task**: find the leak. Next: read pool.go."
	t.Run("a reply with calls", func(t *testing.T) {
		m := newTestModel(t, 100, 40)
		send(m, events(agent.InterventionFired{Intervention: cp}, agent.TextDelta{Text: reply},
			agent.AssistantMessage{Content: reply, ToolCalls: call}, agent.RoundFinished{},
			agent.InterventionAnswered{Seq: 1, Text: reply}, agent.ToolStarted{CallID: "c9", Name: "read_file", Args: call[0].Arguments}))
		got := plain(m)
		if n := strings.Count(got, "find the leak"); n != 1 || strings.Contains(got, "**") || strings.Contains(got, cardWaiting) {
			t.Fatalf("the reply shows %d times (want once, in the card, markdown rendered):\n%s", n, got)
		}
	})
	t.Run("calls without a reply, then the final answer", func(t *testing.T) {
		m := newTestModel(t, 100, 40)
		send(m, events(agent.InterventionFired{Intervention: cp}, agent.AssistantMessage{ToolCalls: call},
			agent.ReflectionRecorded{Seq: 1, Status: agent.ReflectionUnanswered},
			agent.TextDelta{Text: "All done: the leak is fixed."}, agent.AssistantMessage{Content: "All done: the leak is fixed."},
			agent.TaskStopped{Reason: agent.StopCompleted}))
		got := plain(m)
		if !strings.Contains(got, "not answered") || strings.Contains(got, cardWaiting) || strings.Count(got, "All done") != 1 || strings.Contains(got, "answer:") {
			t.Fatalf("the card should say not answered and the final answer show once, outside it:\n%s", got)
		}
	})
}

// longEdit is an edit whose lines are wider than any dialog and longer
// than its preview.
func longEdit() agent.PermissionRequest {
	var old, new strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&old, "\tline %d: return strings.Join(names[:len(names)-2], \", \") + \" and \" + names[len(names)-1] // end-%d\n", i, i)
		fmt.Fprintf(&new, "\tline %d: return strings.Join(names[:len(names)-1], \", \") + \" and \" + names[len(names)-1] // end-%d\n", i, i)
	}
	args, _ := json.Marshal(map[string]string{"path": "greet/greet.go", "old_string": old.String(), "new_string": new.String()})
	return agent.PermissionRequest{CallID: "p1", Tool: "edit_file", Args: string(args), Summary: "greet/greet.go", Grant: "edit_file: all edits this session"}
}

// The permission dialog wraps long diff lines instead of cutting them,
// and v shows the whole change in a pager (issue 32), at 80×24 and at
// 120×40 with the plan panel open.
func TestPermissionDialogShowsTheWholeChange(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := newTestModel(t, sz[0], sz[1])
			send(m, events(agent.PlanChanged{Plan: agent.Plan{Goal: "Fix greet", Steps: []agent.Step{{Title: "Fix List", Status: "active"}}}}))
			prompt(m, "fix greet")
			askPending(t, m, longEdit())
			got := plain(m)
			if strings.Contains(got, "…\n") || !strings.Contains(got, "// end-1") || !strings.Contains(got, "v shows the whole change") {
				t.Fatalf("the dialog cuts the change or offers no way to see it:\n%s", got)
			}
			golden(t, m, fmt.Sprintf("permission_long_%dx%d", sz[0], sz[1]))
			send(m, press("v"))
			for i := 0; i < 20 && !strings.Contains(plain(m), "// end-20"); i++ {
				send(m, press("pgdown"))
			}
			got = plain(m)
			if !strings.Contains(got, "// end-20") || !strings.Contains(got, "the whole change") {
				t.Fatalf("the pager never reached the change's end:\n%s", got)
			}
			golden(t, m, fmt.Sprintf("permission_pager_%dx%d", sz[0], sz[1]))
			send(m, press("esc"))
			if got := plain(m); !strings.Contains(got, "Allow edit_file?") || !m.dialogs.Active() {
				t.Fatalf("esc should go back to the question, not answer it:\n%s", got)
			}
		})
	}
}

// A resumed session's permission notes say how the user answered, as the
// live ones did (issue 32: "allowed run_command" for both).
func TestResumedPermissionNotes(t *testing.T) {
	calls := []llm.ToolCall{{ID: "c1", Name: "run_command", Arguments: `{"command":"go test ./..."}`},
		{ID: "c2", Name: "edit_file", Arguments: `{"path":"a.go","old_string":"a","new_string":"b"}`}}
	rd := &datalog.RoundDetail{
		Round: datalog.Round{Seq: 1, TaskSeq: 1, FinishReason: "tool_calls"},
		Messages: []datalog.Message{{Msg: llm.Message{Role: llm.RoleUser, Content: "test it"}},
			{Msg: llm.Message{Role: llm.RoleAssistant, ToolCalls: calls}},
			{Msg: llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: "ok"}}, {Msg: llm.Message{Role: llm.RoleTool, ToolCallID: "c2", Content: "ok"}}},
		ToolCalls: []datalog.ToolCall{
			{CallID: "c1", Name: "run_command", Permission: "allow", DecidedBy: datalog.DecidedByUserSession + "run_command: go test*"},
			{CallID: "c2", Index: 1, Name: "edit_file", Permission: "allow", DecidedBy: datalog.DecidedByUserOnce}},
	}
	dark := true
	s := agent.New(agent.Options{ProviderName: "openai", Model: "gpt-test"})
	t.Cleanup(s.Close)
	m := New(Options{Session: s, Bridge: dialog.NewBridge(), Resumed: &datalog.SessionDetail{Rounds: []*datalog.RoundDetail{rd}},
		ProviderLabel: "openai", Model: "gpt-test", ContextWindow: 128000, Dark: &dark, Width: 100, Height: 30})
	got := plain(m)
	for _, want := range []string{"allowed for this session: run_command: go test*", "allowed edit_file once"} {
		if !strings.Contains(got, want) {
			t.Errorf("the resumed transcript lacks %q:\n%s", want, got)
		}
	}
}

// A provider error that says what to check is not followed by the
// generic advice (a new user's trial: the 404's "check the base URL
// (OPENAI_BASE_URL, …)" ended "— check the provider in `keel config` or
// try again"); one that does not say gets it.
func TestProviderErrorAdviceOnce(t *testing.T) {
	for _, tt := range []struct {
		msg     string
		generic bool
	}{
		{"openai has no chat-completions endpoint at http://h/chat/completions (HTTP 404): check the base URL (OPENAI_BASE_URL)", false},
		{"openai: HTTP 500: internal error", true},
	} {
		m := newTestModel(t, 120, 30)
		m.running = true
		send(m, events(agent.TaskStopped{Reason: agent.StopProviderError, Message: tt.msg}))
		got := plain(m)
		if strings.Contains(got, "check the provider in") != tt.generic || !strings.Contains(got, "HTTP") {
			t.Errorf("%q: the generic advice shows %v, want %v:\n%s", tt.msg, !tt.generic, tt.generic, got)
		}
	}
}
