package hooks

import "strings"

// Decisions a hook's run comes to.
const (
	DecisionNone  = ""      // proceed as if the hook were not there
	DecisionBlock = "block" // exit 2, "decision": "block", or PreToolUse's "permissionDecision": "deny"
	DecisionAllow = "allow" // PreToolUse: run the call without asking
	DecisionAsk   = "ask"   // PreToolUse: ask the user even if a rule allows the call
	DecisionError = "error" // another exit code, a timeout, a command that did not start: shown, blocks nothing
)

// Decision is what the run decided.
func (r Result) Decision() string {
	switch {
	case r.ExitCode == 2:
		return DecisionBlock
	case r.ExitCode != 0:
		return DecisionError
	case r.Reply == nil:
		return DecisionNone
	}
	if s := r.Reply.Specific; s != nil && r.Hook.Event == PreToolUse {
		switch s.PermissionDecision {
		case "deny":
			return DecisionBlock
		case "allow":
			return DecisionAllow
		case "ask":
			return DecisionAsk
		}
	}
	switch r.Reply.Decision {
	case "block", "deny":
		return DecisionBlock
	case "approve", "allow":
		if r.Hook.Event == PreToolUse {
			return DecisionAllow
		}
	}
	return DecisionNone
}

// Reason is why the run decided as it did: stderr for exit 2, the reply's
// reason otherwise, and for a hook error what went wrong.
func (r Result) Reason() string {
	switch {
	case r.ExitCode == 2:
		return strings.TrimSpace(r.Stderr)
	case r.Err != "":
		return r.Err
	case r.ExitCode != 0:
		return strings.TrimSpace(r.Stderr)
	case r.Reply == nil:
		return ""
	case r.Reply.Specific != nil && r.Reply.Specific.PermissionDecisionReason != "":
		return r.Reply.Specific.PermissionDecisionReason
	case r.Reply.Reason != "":
		return r.Reply.Reason
	}
	return r.Reply.StopReason
}

// context is what the run adds to the model's context: the reply's
// additionalContext, or for UserPromptSubmit and SessionStart a plain
// stdout (Claude Code's rule).
func (r Result) context() string {
	if r.ExitCode != 0 {
		return ""
	}
	if r.Reply != nil {
		if r.Reply.Specific != nil {
			return strings.TrimSpace(r.Reply.Specific.AdditionalContext)
		}
		return ""
	}
	if r.Hook.Event == UserPromptSubmit || r.Hook.Event == SessionStart {
		return strings.TrimSpace(r.Stdout)
	}
	return ""
}

// Outcome is the results of one event's hooks, and what they decided
// together: a block wins over an ask, an ask over an allow.
type Outcome struct {
	Event   Event
	Results []Result
}

// Blocked reports whether a hook blocked, with the reasons joined.
func (o Outcome) Blocked() (bool, string) {
	return o.with(DecisionBlock)
}

// Permission is PreToolUse's verdict on the call: DecisionBlock,
// DecisionAsk, DecisionAllow or DecisionNone.
func (o Outcome) Permission() (string, string) {
	for _, d := range []string{DecisionBlock, DecisionAsk, DecisionAllow} {
		if ok, why := o.with(d); ok {
			return d, why
		}
	}
	return DecisionNone, ""
}

// with reports whether a run decided d, and their reasons.
func (o Outcome) with(d string) (bool, string) {
	var reasons []string
	found := false
	for _, r := range o.Results {
		if r.Decision() == d {
			found = true
			if why := r.Reason(); why != "" {
				reasons = append(reasons, why)
			}
		}
	}
	return found, strings.Join(reasons, "\n")
}

// Context is what the hooks add to the model's context, joined.
func (o Outcome) Context() string {
	var parts []string
	for _, r := range o.Results {
		if c := r.context(); c != "" {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, "\n\n")
}

// Stops reports a reply with "continue": false: the task stops, with the
// reply's stopReason.
func (o Outcome) Stops() (bool, string) {
	for _, r := range o.Results {
		if r.ExitCode == 0 && r.Reply != nil && r.Reply.Continue != nil && !*r.Reply.Continue {
			return true, r.Reply.StopReason
		}
	}
	return false, ""
}
