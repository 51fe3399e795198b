package acp

import (
	"context"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/keel-dev/keel/agent/llm"
)

// replay sends a loaded session's conversation to the editor: the user's
// prompts, keel's answers, each tool call with its result, and the plan.
func (ss *session) replay(ctx context.Context) error {
	var ups []acpsdk.SessionUpdate
	for _, m := range ss.agent.History() {
		ups = append(ups, ss.replayMessage(m)...)
	}
	if p := ss.agent.Plan(); p != nil && len(p.Steps) > 0 {
		ups = append(ups, acpsdk.UpdatePlan(planEntries(*p)...))
	}
	for _, u := range ups {
		if err := ss.conn.SessionUpdate(ctx, acpsdk.SessionNotification{SessionId: ss.id, Update: u}); err != nil {
			return err
		}
	}
	return nil
}

func (ss *session) replayMessage(m llm.Message) []acpsdk.SessionUpdate {
	var ups []acpsdk.SessionUpdate
	switch m.Role {
	case llm.RoleUser:
		if m.Content != "" {
			ups = append(ups, acpsdk.UpdateUserMessageText(m.Content))
		}
	case llm.RoleAssistant:
		if m.Content != "" {
			ups = append(ups, acpsdk.UpdateAgentMessageText(m.Content))
		}
		for _, c := range m.ToolCalls {
			ups = append(ups, ss.startToolCall(c.ID, c.Name, c.Arguments, acpsdk.ToolCallStatusInProgress))
		}
	case llm.RoleTool:
		status := acpsdk.ToolCallStatusCompleted
		if strings.HasPrefix(m.Content, "error") || strings.HasPrefix(m.Content, "cancelled") {
			status = acpsdk.ToolCallStatusFailed
		}
		text := m.Content
		if len(text) > maxToolText {
			text = text[:maxToolText] + "\n…"
		}
		ups = append(ups, acpsdk.UpdateToolCall(acpsdk.ToolCallId(m.ToolCallID), acpsdk.WithUpdateStatus(status),
			acpsdk.WithUpdateContent([]acpsdk.ToolCallContent{acpsdk.ToolContent(acpsdk.TextBlock(text))})))
	}
	return ups
}

// promptText is a prompt's blocks as one text: text as it is, a linked
// file as an @mention of its path, an embedded file's text fenced under
// its name. Images and audio are left out: keel's models take text.
func promptText(blocks []acpsdk.ContentBlock) string {
	var b strings.Builder
	for _, c := range blocks {
		switch {
		case c.Text != nil:
			b.WriteString(c.Text.Text)
		case c.ResourceLink != nil:
			b.WriteString(" @" + strings.TrimPrefix(c.ResourceLink.Uri, "file://") + " ")
		case c.Resource != nil && c.Resource.Resource.TextResourceContents != nil:
			r := c.Resource.Resource.TextResourceContents
			b.WriteString("\n\n" + strings.TrimPrefix(r.Uri, "file://") + ":\n```\n" + r.Text + "\n```\n")
		}
	}
	return b.String()
}
