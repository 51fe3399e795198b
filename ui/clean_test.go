package ui

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/ui/browser"
	"github.com/keel-dev/keel/ui/dialog"
	"github.com/keel-dev/keel/ui/transcript"
)

// hostile is model or tool text that would write the clipboard (OSC 52),
// retitle the window, clear the screen, move the cursor (C1 CSI), ring
// the bell, and hide its start behind backspaces and a carriage return.
const hostile = "VISIBLE \x1b]52;c;cm0gLXJmIH4K\x07 \x1b]0;pwned\x1b\\ \x1b[2J\x1b[H \u009b1A ding\x07 ab\b\b hidden\rshown"

// hostileJSON is hostile as tool arguments: JSON escapes that decode to
// the control characters.
const hostileJSON = `{"command":"VISIBLE \u001b]52;c;QUJD\u0007 \u001b[2J","new_string":"VISIBLE \u001b]0;t\u0007","old_string":"x"}`

// foreignControl reports the first escape sequence or control character
// in a view that keel's own styling does not explain: anything but SGR
// (ESC [ digits ; : m), LF, and printable UTF-8.
func foreignControl(v string) (string, bool) {
	near := func(i int) string { return v[max(i-30, 0):min(i+30, len(v))] }
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == 0x1b:
			j := i + 1
			if j >= len(v) || v[j] != '[' {
				return near(i), true
			}
			for j++; j < len(v) && (v[j] >= '0' && v[j] <= ';'); j++ {
			}
			if j >= len(v) || v[j] != 'm' {
				return near(i), true
			}
			i = j + 1
			continue
		case c < 0x20 && c != '\n', c == 0x7f:
			return near(i), true
		}
		r, size := utf8.DecodeRuneInString(v[i:])
		if (r == utf8.RuneError && size == 1) || (r >= 0x80 && r <= 0x9f) {
			return near(i), true
		}
		i += size
	}
	return "", false
}

// expandAll expands the last n expandable entries with the keys a user
// presses: ctrl+o on the selected one (the newest), then alt+↑ to the one
// before it.
func expandAll(m *Model, n int) {
	for i := range n {
		if i > 0 {
			send(m, press("alt+up"))
		}
		send(m, press("ctrl+o"))
	}
}

func checkView(t *testing.T, m *Model, what string) {
	t.Helper()
	v := m.View().Content
	if near, bad := foreignControl(v); bad {
		t.Fatalf("%s: the view holds a control sequence near %q", what, near)
	}
	if !strings.Contains(ansi.Strip(v), "VISIBLE") {
		t.Fatalf("%s: the text around the sequences is gone:\n%s", what, ansi.Strip(v))
	}
}

// deltas cuts s into pieces of n bytes (whole runes), as a stream would,
// so escape sequences are split across them.
func deltas(s string, n int) []agent.Event {
	var evs []agent.Event
	for s != "" {
		end := 0
		for end < len(s) && end < n {
			_, size := utf8.DecodeRuneInString(s[end:])
			end += size
		}
		evs = append(evs, agent.TextDelta{Text: s[:end]})
		s = s[end:]
	}
	return evs
}

func TestTranscriptShowsNoControlSequences(t *testing.T) {
	m := newTestModel(t, 120, 60)
	send(m, events(append(deltas(hostile+"\n\nmore "+hostile, 3), agent.ReasoningDelta{Text: hostile})...), transcript.FrameMsg{})
	checkView(t, m, "streaming")
	send(m, events(agent.RoundFinished{}))
	checkView(t, m, "answered")

	send(m, events(
		agent.ToolStarted{CallID: "1", Name: "run_command", Args: hostileJSON},
		agent.ToolFinished{CallID: "1", Name: "run_command", Args: hostileJSON, Output: hostile, IsError: true},
		agent.ToolFinished{CallID: "2", Name: "edit_file", Args: hostileJSON, Diff: "--- a\n+++ b\n+" + hostile, Denied: true, DenyReason: hostile},
	))
	checkView(t, m, "tool calls")
	expandAll(m, 3) // the reasoning and both calls
	checkView(t, m, "expanded")

	in := agent.Intervention{Seq: 1, Kind: "reflection", Why: hostile, Message: hostile, Action: "inject"}
	plan := agent.Plan{Goal: hostile, Strategy: hostile, Steps: []agent.Step{{Title: hostile, Status: agent.StepFailed, Note: hostile}}}
	send(m, events(
		agent.InterventionFired{Intervention: in},
		agent.InterventionAnswered{Seq: 1, Text: hostile},
		agent.PlanChanged{Plan: plan},
		agent.ReportUpdated{Stalled: []string{hostile}},
		agent.Notice{Text: hostile},
		agent.StateChanged{To: agent.StateFailed, Detail: hostile},
		agent.TaskStopped{Reason: agent.StopProviderError, Err: errors.New(hostile)},
	))
	checkView(t, m, "cards, plan, notices, errors")
	if plan.Steps[0].Title != hostile {
		t.Fatal("sanitising changed the agent's plan")
	}
	if a := m.tr.LastAnswer(); strings.ContainsAny(a, "\x1b\x07\r") {
		t.Fatalf("y would copy %q", a)
	}
}

func TestDialogsShowNoControlSequences(t *testing.T) {
	m := newTestModel(t, 120, 40)
	askAsync(t, m, agent.PermissionRequest{CallID: "1", Tool: "edit_file", Args: hostileJSON,
		Summary: hostile, Reason: hostile, Grant: hostile})
	checkView(t, m, "permission dialog")
}

func TestResumedHistoryShowsNoControlSequences(t *testing.T) {
	dark := true
	s := agent.New(agent.Options{ProviderName: "openai", Model: "gpt-test", History: []llm.Message{
		{Role: llm.RoleUser, Content: hostile},
		{Role: llm.RoleAssistant, Content: hostile, Reasoning: hostile,
			ToolCalls: []llm.ToolCall{{ID: "c1", Name: "run_command", Arguments: hostileJSON}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Content: hostile},
	}})
	t.Cleanup(s.Close)
	m := New(Options{Session: s, Bridge: dialog.NewBridge(), Dark: &dark, Width: 120, Height: 50})
	expandAll(m, 2) // the reasoning and the call
	checkView(t, m, "resumed history")
}

func TestBrowserShowsNoControlSequences(t *testing.T) {
	m := newTestModel(t, 120, 50)
	scenarioBrowser(t, m)
	sess := datalog.Session{ID: "0123456789abcdef", Provider: hostile, Model: hostile, FirstPrompt: hostile, StopReason: hostile}
	send(m, browser.SessionsMsg{Sessions: []datalog.Session{sess}})
	checkView(t, m, "sessions")
	rd := &datalog.RoundDetail{
		Round:         datalog.Round{Seq: 1, FinishReason: hostile},
		Transitions:   []datalog.StateTransition{{From: hostile, To: hostile, Detail: hostile}},
		Messages:      []datalog.Message{{Msg: llm.Message{Role: llm.RoleAssistant, Content: hostile}}},
		ToolCalls:     []datalog.ToolCall{{Name: hostile, Arguments: hostileJSON, Result: hostile, Permission: hostile, DecidedBy: hostile}},
		Interventions: []datalog.Intervention{{Kind: hostile, Message: hostile, Reply: hostile}},
		Plans:         []datalog.PlanSnapshot{{Status: hostile, Plan: []byte(`"` + hostile + `"`)}},
		FileChanges:   []datalog.FileChange{{Path: hostile}},
	}
	send(m, browser.DetailMsg{Detail: &datalog.SessionDetail{Session: sess, Rounds: []*datalog.RoundDetail{rd}}})
	checkView(t, m, "rounds")
	send(m, press("enter"))
	if !strings.Contains(plain(m), "Round 1 of session") {
		t.Fatalf("enter should open the round:\n%s", plain(m))
	}
	checkView(t, m, "round")
}
