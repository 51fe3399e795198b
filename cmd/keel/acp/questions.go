package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/tools"
)

// The options keel offers in session/request_permission.
const (
	optAllow        = "allow"
	optAllowSession = "allow_session"
	optDeny         = "deny"
)

// Ask is agent.Gate: a tool call the policy wants approved goes to the
// editor. No answer (an error, or the prompt cancelled) denies it.
func (ss *session) Ask(ctx context.Context, req agent.PermissionRequest) (agent.PermissionReply, error) {
	opts := []acpsdk.PermissionOption{{OptionId: optAllow, Name: "Allow", Kind: acpsdk.PermissionOptionKindAllowOnce}}
	if req.Grant != "" {
		opts = append(opts, acpsdk.PermissionOption{OptionId: optAllowSession, Name: "Allow for this session: " + req.Grant, Kind: acpsdk.PermissionOptionKindAllowAlways})
	}
	opts = append(opts, acpsdk.PermissionOption{OptionId: optDeny, Name: "Deny", Kind: acpsdk.PermissionOptionKindRejectOnce})
	call := ss.toolCall(req.CallID, req.Tool, req.Args, acpsdk.ToolCallStatusPending)
	if req.Reason != "" {
		call.Content = []acpsdk.ToolCallContent{acpsdk.ToolContent(acpsdk.TextBlock("keel asks because: " + req.Reason))}
	}
	choice, err := ss.ask(ctx, call, opts)
	switch {
	case err != nil:
		return agent.PermissionReply{Reason: "denied: " + err.Error()}, nil
	case choice == optAllow:
		return agent.PermissionReply{Allow: true}, nil
	case choice == optAllowSession:
		return agent.PermissionReply{Allow: true, ForSession: true}, nil
	}
	return agent.PermissionReply{Reason: "denied by the user in the editor"}, nil
}

// AskGuard is agent.Asker: a guard that wants the user's word asks the
// editor whether to go on.
func (ss *session) AskGuard(ctx context.Context, in agent.Intervention) (agent.GuardAnswer, error) {
	title := fmt.Sprintf("keel %s: %s — continue?", in.Kind, in.Why)
	choice, err := ss.ask(ctx, ss.question(title, in.Message), []acpsdk.PermissionOption{
		{OptionId: optAllow, Name: "Continue", Kind: acpsdk.PermissionOptionKindAllowOnce},
		{OptionId: optDeny, Name: "Stop the task", Kind: acpsdk.PermissionOptionKindRejectOnce}})
	return agent.GuardAnswer{Continue: err == nil && choice == optAllow}, nil
}

// ConfirmPlan is agent.PlanConfirmer ([plan] confirm): the plan goes to
// the editor before its first side effect.
func (ss *session) ConfirmPlan(ctx context.Context, p agent.Plan) (agent.PlanVerdict, error) {
	var b strings.Builder
	for i, s := range p.Steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s.Title)
	}
	choice, err := ss.ask(ctx, ss.question("Approve keel's plan: "+p.Goal, b.String()), []acpsdk.PermissionOption{
		{OptionId: optAllow, Name: "Approve the plan", Kind: acpsdk.PermissionOptionKindAllowOnce},
		{OptionId: optDeny, Name: "Cancel the task", Kind: acpsdk.PermissionOptionKindRejectOnce}})
	if err != nil || choice != optAllow {
		return agent.PlanVerdict{Cancel: true}, nil
	}
	return agent.PlanVerdict{Approve: true}, nil
}

// question is a pseudo tool call carrying a question that is not a tool
// call's (the protocol asks only about tool calls).
func (ss *session) question(title, body string) acpsdk.ToolCallUpdate {
	ss.askMu.Lock()
	ss.asks++
	id := fmt.Sprintf("keel-question-%d", ss.asks)
	ss.askMu.Unlock()
	kind, status := acpsdk.ToolKindThink, acpsdk.ToolCallStatusPending
	u := acpsdk.ToolCallUpdate{ToolCallId: acpsdk.ToolCallId(id), Title: &title, Kind: &kind, Status: &status}
	if body != "" {
		u.Content = []acpsdk.ToolCallContent{acpsdk.ToolContent(acpsdk.TextBlock(body))}
	}
	return u
}

// ask sends a permission request and returns the option chosen; a
// cancelled question is an error.
func (ss *session) ask(ctx context.Context, call acpsdk.ToolCallUpdate, opts []acpsdk.PermissionOption) (string, error) {
	resp, err := ss.conn.RequestPermission(ctx, acpsdk.RequestPermissionRequest{SessionId: ss.id, ToolCall: call, Options: opts})
	if err != nil {
		return "", fmt.Errorf("the editor did not answer (%w)", err)
	}
	if resp.Outcome.Selected == nil {
		return "", errors.New("the question was cancelled")
	}
	return string(resp.Outcome.Selected.OptionId), nil
}

// clientFiles is tools.ClientFiles over the editor's fs methods, for
// what it offered.
type clientFiles struct {
	s           *session
	read, write bool
}

func (c *clientFiles) ReadTextFile(ctx context.Context, path string) (string, error) {
	if !c.read {
		return "", tools.ErrNoClientFiles
	}
	resp, err := c.s.conn.ReadTextFile(ctx, acpsdk.ReadTextFileRequest{SessionId: c.s.id, Path: path})
	if err != nil {
		return "", err
	}
	return resp.Content, nil
}

func (c *clientFiles) WriteTextFile(ctx context.Context, path, content string) error {
	if !c.write || content == "" { // the protocol's write takes no empty content
		return tools.ErrNoClientFiles
	}
	_, err := c.s.conn.WriteTextFile(ctx, acpsdk.WriteTextFileRequest{SessionId: c.s.id, Path: path, Content: content})
	return err
}
