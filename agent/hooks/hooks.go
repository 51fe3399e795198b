// Package hooks runs the user's hook commands at fixed points of a session,
// on Claude Code's model: a command gets the event as JSON on stdin; exit 0
// proceeds (a JSON reply on stdout may carry a decision and a reason), exit
// 2 blocks with its stderr as the reason, any other ending (another code, a
// timeout, a command that cannot start) is a hook error that blocks
// nothing. Matchers are regular expressions over the tool name (the source
// for SessionStart, the trigger for PreCompact). Commands run with the
// environment they are given (keel passes run_command's, without secrets),
// in their own process group, killed at their timeout. It imports nothing
// of keel's.
package hooks

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Event is a point of a session where hooks run.
type Event string

// The events, Claude Code's names.
const (
	PreToolUse       Event = "PreToolUse"       // before a tool call runs: may block it, allow it unasked, or make keel ask
	PostToolUse      Event = "PostToolUse"      // after a tool call ran: may add a note for the model
	UserPromptSubmit Event = "UserPromptSubmit" // before a prompt reaches the model: may block it or add context
	Stop             Event = "Stop"             // the model is about to end the task: may send it back to work
	SubagentStop     Event = "SubagentStop"     // a subagent is about to end: may send it back to work
	SessionStart     Event = "SessionStart"     // the session's first task begins: may add context
	SessionEnd       Event = "SessionEnd"       // the session ends
	PreCompact       Event = "PreCompact"       // keel is about to compact the history
	Notification     Event = "Notification"     // keel waits for the user (a permission question)
)

// Events lists every event, in the order of a session.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Notification, PreCompact, Stop, SubagentStop, SessionEnd}

// Valid reports whether e is one of Events.
func (e Event) Valid() bool { return slices.Contains(Events, e) }

// DefaultTimeout bounds a hook that sets none, as Claude Code's.
const DefaultTimeout = 60 * time.Second

// Hook is one configured command.
type Hook struct {
	Event   Event
	Matcher string // a regular expression matched against the whole name; "" or "*" matches everything
	Command string // run by bash -c in the workspace
	Timeout time.Duration
	Origin  string // where it was configured ("file:line"), for messages

	re *regexp.Regexp
}

// Compile checks a hook and prepares its matcher. The error is one
// sentence naming the hook.
func (h *Hook) Compile() error {
	if !h.Event.Valid() {
		return fmt.Errorf("%s: %q is not a hook event; the events are %s", h.Origin, h.Event, eventList())
	}
	if strings.TrimSpace(h.Command) == "" {
		return fmt.Errorf("%s: a %s hook needs a command", h.Origin, h.Event)
	}
	if h.Timeout < 0 {
		return fmt.Errorf("%s: a hook's timeout must be positive", h.Origin)
	}
	re, err := compileMatcher(h.Matcher)
	if err != nil {
		return fmt.Errorf("%s: matcher %q is not a regular expression: %v", h.Origin, h.Matcher, err)
	}
	h.re = re
	return nil
}

// compileMatcher makes a matcher a regexp that must match the whole name:
// "Write" matches the tool write only, "edit_file|write_file" either, and
// "mcp__.*" every MCP tool. "" and "*" match everything (nil).
func compileMatcher(m string) (*regexp.Regexp, error) {
	if m == "" || m == "*" {
		return nil, nil
	}
	return regexp.Compile("^(?:" + m + ")$")
}

// Matches reports whether the hook runs for name (a tool name, a source,
// a trigger; "" for events without one).
func (h *Hook) Matches(name string) bool {
	if h.re == nil {
		return h.Matcher == "" || h.Matcher == "*"
	}
	return h.re.MatchString(name)
}

// timeout is the hook's, or DefaultTimeout.
func (h *Hook) timeout() time.Duration {
	if h.Timeout > 0 {
		return h.Timeout
	}
	return DefaultTimeout
}

func eventList() string {
	names := make([]string, len(Events))
	for i, e := range Events {
		names[i] = string(e)
	}
	return strings.Join(names, ", ")
}
