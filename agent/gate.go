package agent

import "context"

// PermissionRequest is a tool call the permission policy wants a person to
// approve.
type PermissionRequest struct {
	CallID      string
	Tool        string
	Args        string // the raw JSON arguments
	Summary     string // the key argument: the full command, or the path
	Reason      string // why it asks (e.g. "destructive command", "outside the workspace")
	Grant       string // what "allow for this session" would cover
	Always      string // the rule "allow always" saves in the user's config ("" when not offered)
	Destructive bool
	Agent       string // the subagent asking ("" for the session's own model)
}

// PermissionReply is a person's (or a policy's) answer.
type PermissionReply struct {
	Allow      bool
	ForSession bool   // remember the grant for the rest of the session
	Always     bool   // and save its rule in the user's config (PermissionRequest.Always)
	Reason     string // a denial's reason, sent to the model
}

// Gate answers permission requests. The TUI implements it with a dialog
// (never blocking its own goroutine); headless mode answers from policy.
type Gate interface {
	Ask(ctx context.Context, req PermissionRequest) (PermissionReply, error)
}

// DenyGate refuses every request: headless mode without --yolo, where only
// config rules and --allow flags let side effects through.
type DenyGate struct{}

// headlessGate reports a gate that answers without asking anyone.
func headlessGate(g Gate) bool {
	if c, ok := g.(childGate); ok {
		g = c.gate
	}
	_, ok := g.(DenyGate)
	return ok
}

// Ask refuses, saying how to allow the call next time: the rule "always"
// would save when the question offers one (fetch's domain), else the tool.
func (DenyGate) Ask(_ context.Context, req PermissionRequest) (PermissionReply, error) {
	if req.Always != "" {
		return PermissionReply{Reason: "denied in headless mode: " + req.Reason + "; allow it with --allow " + req.Always + " or a rule in the config"}, nil
	}
	return PermissionReply{Reason: "denied in headless mode: allow it with --allow " + req.Tool + " or a [permissions] allow rule"}, nil
}
