package headless

import (
	"fmt"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/hooks"
	"github.com/keel-dev/keel/internal/termtext"
)

// hookLine is a hook's run in stream-json: Claude Code's hook_response
// system message, with keel's decision, reason and duration.
func hookLine(e agent.HookRan) line {
	name := string(e.Event)
	if e.Tool != "" {
		name += ":" + e.Tool
	}
	outcome := "success"
	switch e.Decision {
	case hooks.DecisionError:
		outcome = "error"
	case hooks.DecisionBlock:
		outcome = "blocked"
	}
	return line{"type": "system", "subtype": "hook_response", "hook_name": name, "hook_event": e.Event, "command": e.Command,
		"matcher": e.Matcher, "tool_use_id": e.CallID, "agent": e.Agent, "exit_code": e.ExitCode, "outcome": outcome,
		"decision": e.Decision, "reason": e.Reason, "timed_out": e.TimedOut, "duration_ms": e.Duration.Milliseconds()}
}

// HookLine is a hook's run in one line, as text output and the TUI show
// it: ⚑ PreToolUse hook scripts/check.sh (write_file): blocked, exit 2, 12ms: reason.
func HookLine(e agent.HookRan) string {
	subject := string(e.Event) + " hook " + abbreviate(termtext.Sanitize(e.Command), 60)
	if e.Tool != "" {
		subject += " (" + e.Tool + ")"
	}
	if e.Agent != "" {
		subject = e.Agent + ": " + subject
	}
	what := "ok"
	switch e.Decision {
	case hooks.DecisionBlock:
		what = "blocked"
	case hooks.DecisionAllow:
		what = "allowed"
	case hooks.DecisionAsk:
		what = "asks"
	case hooks.DecisionError:
		what = "hook error"
	}
	status := fmt.Sprintf("exit %d", e.ExitCode)
	if e.ExitCode < 0 {
		status = "no exit"
	}
	out := fmt.Sprintf("⚑ %s: %s, %s, %s", subject, what, status, termtext.Duration(e.Duration))
	if e.Reason != "" {
		out += ": " + abbreviate(termtext.Sanitize(e.Reason), 200)
	}
	return out
}
