package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestMCPCommand(t *testing.T) {
	tests := []struct {
		name string
		hook func() tea.Cmd
		want string
	}{
		{"no hook", nil, "/mcp is not available"},
		{"report", func() tea.Cmd {
			return func() tea.Msg { return NoticeMsg{Text: "github: ready (stdio: gh)\n  tools (1): mcp__github__a"} }
		}, "mcp__github__a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, 80, 24)
			m.opts.MCP = tt.hook
			if cmd := runLine(m, "/mcp"); cmd != nil {
				send(m, cmd())
			}
			if m.running || !strings.Contains(plain(m), tt.want) {
				t.Errorf("after /mcp (running %v):\n%s", m.running, plain(m))
			}
		})
	}
}

func TestLateNoticesShowAndKeepWaiting(t *testing.T) {
	ch := make(chan string, 2)
	m := newTestModel(t, 80, 24)
	m.opts.LateNotices = ch
	ch <- "MCP server \"db\" stopped (exit status 3)\x1b[31m"
	ch <- "second"
	cmd := waitNotice(ch)
	for range 2 {
		_, cmd = m.Update(cmd())
	}
	out := plain(m)
	if !strings.Contains(out, `MCP server "db" stopped (exit status 3)`) || !strings.Contains(out, "second") || strings.Contains(out, "\x1b[31m") {
		t.Errorf("late notices:\n%q", out)
	}
	if cmd == nil {
		t.Error("after a notice the model must wait for the next")
	}
	close(ch)
	if msg := cmd(); msg != nil {
		t.Errorf("a closed channel ends the wait, got %v", msg)
	}
	if waitNotice(nil) != nil {
		t.Error("no channel, no command")
	}
}
