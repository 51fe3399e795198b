package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
)

func runLine(m *Model, line string) tea.Cmd {
	typeText(m, line)
	_, cmd := m.Update(press("enter"))
	return cmd
}

func TestSlashCommands(t *testing.T) {
	tests := []struct {
		line  string
		check func(t *testing.T, m *Model, cmd tea.Cmd)
	}{
		{"/help", func(t *testing.T, m *Model, _ tea.Cmd) {
			if !m.help.Open() {
				t.Error("/help should show the help")
			}
		}},
		{"/plan", func(t *testing.T, m *Model, _ tea.Cmd) {
			if !strings.Contains(plain(m), "no plan yet") {
				t.Error("/plan without a plan should say so")
			}
		}},
		{"/log", func(t *testing.T, m *Model, _ tea.Cmd) {
			if !strings.Contains(plain(m), "datalog is off") {
				t.Error("/log without a datalog should say so")
			}
		}},
		{"/undo", notAvailable("/undo")},
		{"/compact", notAvailable("/compact")},
		{"/model other", notAvailable("/model")},
		{"/cadence 5", func(t *testing.T, m *Model, _ tea.Cmd) {
			if !strings.Contains(plain(m), "checkpoint every 5 tool calls") {
				t.Error("/cadence 5 should set and say the cadence")
			}
		}},
		{"/cadence x", func(t *testing.T, m *Model, _ tea.Cmd) {
			if !strings.Contains(plain(m), "usage: /cadence N") {
				t.Error("/cadence x should explain the usage")
			}
		}},
		{"/clear", func(t *testing.T, m *Model, _ tea.Cmd) {
			if m.tr.Len() != 0 {
				t.Error("/clear should empty the transcript")
			}
		}},
		{"/resume", func(t *testing.T, m *Model, _ tea.Cmd) {
			if !strings.Contains(plain(m), "datalog is off") {
				t.Error("/resume without an id opens the browser (off here)")
			}
		}},
		{"/resume 0193", func(t *testing.T, m *Model, cmd tea.Cmd) {
			if m.ResumeRequested() != "0193" || cmd == nil {
				t.Error("/resume ID without a hook should quit with a resume request")
			}
		}},
		{"/quit", func(t *testing.T, _ *Model, cmd tea.Cmd) {
			if cmd == nil {
				t.Fatal("/quit returned no command")
			}
			if _, ok := cmd().(tea.QuitMsg); !ok {
				t.Error("/quit should quit")
			}
		}},
		{"/hel", func(t *testing.T, m *Model, _ tea.Cmd) {
			if !m.help.Open() {
				t.Error("a unique prefix runs its command")
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			m := newTestModel(t, 80, 24)
			send(m, NoticeMsg{Text: "earlier"})
			cmd := runLine(m, tc.line)
			if m.running {
				t.Fatal("a slash command must not be sent to the model")
			}
			tc.check(t, m, cmd)
		})
	}
}

func notAvailable(name string) func(t *testing.T, m *Model, cmd tea.Cmd) {
	return func(t *testing.T, m *Model, cmd tea.Cmd) {
		if cmd != nil || !strings.Contains(plain(m), name+" is not available") {
			t.Errorf("%s without a hook should say it is not available:\n%s", name, plain(m))
		}
	}
}

func TestSlashHooks(t *testing.T) {
	called := ""
	m := newTestModel(t, 80, 24)
	m.opts.Undo = func() tea.Cmd {
		called += "undo "
		return func() tea.Msg { return NoticeMsg{Text: "restored 2 files"} }
	}
	m.opts.Compact = func() tea.Cmd { called += "compact "; return nil }
	m.opts.SetModel = func(n string) tea.Cmd { called += "model:" + n + " "; return nil }
	m.opts.Resume = func(id string) tea.Cmd { called += "resume:" + id; return nil }
	cmd := runLine(m, "/undo")
	send(m, cmd())
	runLine(m, "/compact")
	runLine(m, "/model gpt-5")
	runLine(m, "/resume abc")
	if called != "undo compact model:gpt-5 resume:abc" {
		t.Fatalf("hooks called: %q", called)
	}
	if !strings.Contains(plain(m), "restored 2 files") {
		t.Fatal("a hook's NoticeMsg should show")
	}
	send(m, ModelChangedMsg{Model: "gpt-5"})
	if !strings.Contains(plain(m), "openai/gpt-5") {
		t.Fatal("ModelChangedMsg should update the status bar")
	}
}

func TestTabCompletion(t *testing.T) {
	m := newTestModel(t, 80, 24)
	typeText(m, "/ca")
	send(m, press("tab"))
	if m.input.Value() != "/cadence " {
		t.Fatalf("tab: %q", m.input.Value())
	}
	m.input.Set("/c")
	send(m, press("tab"))
	for _, row := range []string{"› /compact  summarise older rounds", "  /cadence  checkpoint every N", "  /clear    clear the screen"} {
		if m.input.Value() != "/c" || !strings.Contains(plain(m), row) {
			t.Fatalf("ambiguous tab should list the matches with their descriptions:\n%s", plain(m))
		}
	}
	m.input.Set("/u")
	send(m, press("tab"))
	if m.input.Value() != "/undo " {
		t.Fatalf("tab: %q", m.input.Value())
	}
}

func TestUnknownSlashIsAPrompt(t *testing.T) {
	m := newTestModel(t, 80, 24)
	runLine(m, "/usr/bin/env is broken")
	if !m.running {
		t.Fatal("a path that is not a command should be sent as a prompt")
	}
}

func TestCadenceZeroTurnsOffCheckpointCount(t *testing.T) {
	m := newTestModel(t, 160, 48)
	send(m, events(agent.UsageUpdated{ToolCalls: 3, NextCheckpointIn: 7}))
	if !strings.Contains(plain(m), "checkpoint in 7 calls") {
		t.Fatal("status bar should show the next checkpoint")
	}
	runLine(m, "/cadence 0")
	if strings.Contains(plain(m), "checkpoint in") {
		t.Fatal("/cadence 0 should drop the countdown")
	}
}
