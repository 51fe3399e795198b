package ui

import (
	"fmt"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/hooks"
	"github.com/keel-dev/keel/internal/termtext"
	"github.com/keel-dev/keel/ui/common"
)

// hookLine is a hook's run as a transcript line: ⚑ PreToolUse hook
// scripts/check.sh (write_file): blocked, exit 2, 12ms: reason.
func hookLine(e agent.HookRan) string {
	subject := string(e.Event) + " hook " + common.OneLine(e.Command)
	if e.Tool != "" {
		subject += " (" + e.Tool + ")"
	}
	if e.Agent != "" {
		subject = e.Agent + ": " + subject
	}
	what := map[string]string{hooks.DecisionBlock: "blocked", hooks.DecisionAllow: "allowed", hooks.DecisionAsk: "asks",
		hooks.DecisionError: "hook error"}[e.Decision]
	if what == "" {
		what = "ok"
	}
	status := fmt.Sprintf("exit %d", e.ExitCode)
	if e.ExitCode < 0 {
		status = "no exit"
	}
	line := fmt.Sprintf("⚑ %s: %s, %s, %s", subject, what, status, termtext.Duration(e.Duration))
	if e.Reason != "" {
		line += ": " + common.OneLine(e.Reason)
	}
	return line
}

// subagentEvent shows a running subagent's event on its card; its
// permission questions come through the Bridge, its notices as lines.
func (m *Model) subagentEvent(ev agent.SubagentEvent) {
	switch in := ev.Event.(type) {
	case agent.HookRan:
		m.notice(hookLine(in))
	case agent.Notice:
		m.notice(ev.Agent + ": " + in.Text)
	default:
		m.tr.SubagentProgress(ev)
	}
}
