package agent

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/hooks"
	"github.com/keel-dev/keel/tools"
)

// Permissions decides whether a tool call may run (tools.Policy).
type Permissions interface {
	Decide(tool string, args json.RawMessage) tools.Decision
	Grant(g tools.Grant)
}

// persister is a Permissions that can save a grant the user allowed
// always (tools.Policy: the rule goes into the user's config).
type persister interface {
	Persist(g tools.Grant) error
}

// permit asks the policy, and the gate when the policy says ask. A denied
// call gets a result telling the model why; it reports whether to run.
func (t *task) permit(ctx context.Context, o *outcome, hook string) bool {
	s := t.s
	if s.opts.Permissions == nil || s.ownTool(o.call.Name) { // the session's own tools only record (plan, reflection, notes)
		o.decision, o.decidedBy, o.writes = "allow", "policy", true
		return true
	}
	d := s.opts.Permissions.Decide(o.call.Name, o.args())
	o.target = d.Target
	switch {
	case d.Verdict == tools.Ask && hook == hooks.DecisionAllow: // a PreToolUse hook allowed it; a deny rule still wins
		o.decision, o.decidedBy = "allow", datalog.DecidedByHook
		return true
	case d.Verdict == tools.Allow && hook == hooks.DecisionAsk: // a PreToolUse hook wants a person to look
		d.Reason = "a PreToolUse hook asks for your approval"
	case d.Verdict == tools.Allow:
		o.decision, o.decidedBy = "allow", decidedBy(d, s.readOnly(o.call.Name), s.opts.Yolo)
		o.writes = !d.ReadOnly // allowed by analysis alone: the read-only sandbox
		return true
	case d.Verdict == tools.Deny:
		t.deny(o, "policy", d.Reason)
		return false
	}
	if !headlessGate(s.opts.Gate) {
		s.notifyHooks(ctx, "keel needs your permission to use "+o.call.Name)
	}
	reply, err := s.opts.Gate.Ask(ctx, PermissionRequest{
		CallID: o.call.ID, Tool: o.call.Name, Args: o.call.Arguments, Summary: KeyArgument(o.call.Arguments),
		Reason: d.Reason, Grant: d.Grant.Description, Always: d.Grant.Always, Destructive: d.Destructive,
	})
	if err != nil || !reply.Allow {
		if ctx.Err() != nil {
			o.setCancelled()
			return false
		}
		t.deny(o, "user", reply.Reason)
		return false
	}
	o.decision, o.decidedBy, o.writes = "allow", answeredBy(reply, d.Grant), true
	t.remember(reply, d.Grant)
	return true
}

// answeredBy records how the user answered the dialog: once, for the
// session with the grant's pattern, or always with the rule saved.
func answeredBy(reply PermissionReply, g tools.Grant) string {
	switch {
	case reply.Always && g.Always != "":
		return datalog.DecidedByUserAlways + g.Always
	case reply.ForSession || reply.Always:
		return datalog.DecidedByUserSession + g.Description
	}
	return datalog.DecidedByUserOnce
}

// remember keeps what the user allowed beyond this call: the grant for
// the session, and its rule in the user's config when allowed always (a
// rule that cannot be saved is said, and holds for the session).
func (t *task) remember(reply PermissionReply, g tools.Grant) {
	s := t.s
	p, ok := s.opts.Permissions.(persister)
	switch {
	case reply.Always && ok && g.Always != "":
		if err := p.Persist(g); err != nil {
			s.out.send(Notice{Text: "could not save the rule " + g.Always + ": " + err.Error()})
		} else {
			s.out.send(Notice{Text: "saved in your config: " + g.Always})
		}
	case reply.ForSession || reply.Always:
		s.opts.Permissions.Grant(g)
	}
}

// deny records a refusal and gives the model the reason.
func (t *task) deny(o *outcome, by, reason string) {
	if reason == "" {
		reason = "the user denied this call"
	}
	o.denied = true
	o.decision, o.decidedBy = "deny", by
	o.result.IsError = true
	o.result.Output = "permission denied: " + reason
	o.output = o.result.Output
	o.denial = reason // the task collects it on its own goroutine (runTools)
}

// decidedBy names who allowed a call the policy let through, as the
// policy said (tools.Decision.By): an allow rule in config, a session
// grant from an earlier answer, --yolo, or read-only (by policy). A
// policy that does not say: read-only tools run by policy, the rest by
// --yolo or a rule or grant.
func decidedBy(d tools.Decision, readOnlyTool, yolo bool) string {
	switch {
	case d.By == tools.ByReadOnly:
		return datalog.DecidedByPolicy
	case d.By == tools.ByYolo:
		return datalog.DecidedByYolo
	case strings.HasPrefix(d.By, tools.ByRule):
		return datalog.DecidedByRuleNamed + strings.TrimPrefix(d.By, tools.ByRule)
	case strings.HasPrefix(d.By, tools.BySession):
		return datalog.DecidedBySession + strings.TrimPrefix(d.By, tools.BySession)
	case readOnlyTool || d.ReadOnly:
		return datalog.DecidedByPolicy
	case yolo:
		return datalog.DecidedByYolo
	}
	return datalog.DecidedByRule
}

// KeyArgument is the argument a person needs to judge a call: the
// command, else the path.
func KeyArgument(args string) string {
	var a struct {
		Command string `json:"command"`
		Path    string `json:"path"`
		Pattern string `json:"pattern"`
		Goal    string `json:"goal"`
		URL     string `json:"url"`
	}
	_ = json.Unmarshal([]byte(args), &a)
	switch {
	case a.Command != "":
		return a.Command
	case a.Path != "":
		return a.Path
	case a.Pattern != "":
		return a.Pattern
	case a.URL != "":
		return a.URL
	}
	return a.Goal
}
