package acp

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/tools"
)

// maxToolText caps a tool's output shown in the editor (the model got it
// whole, up to tool_output_cap).
const maxToolText = 64 << 10

// updates are the session/update notifications an event becomes.
func (ss *session) updates(ev agent.Event) []acpsdk.SessionUpdate {
	switch e := ev.(type) {
	case agent.TextDelta:
		return one(acpsdk.UpdateAgentMessageText(e.Text))
	case agent.ReasoningDelta:
		return one(acpsdk.UpdateAgentThoughtText(e.Text))
	case agent.ToolStarted:
		return one(ss.startToolCall(e.CallID, e.Name, e.Args, acpsdk.ToolCallStatusInProgress))
	case agent.ToolFinished:
		return one(acpsdk.UpdateToolCall(acpsdk.ToolCallId(e.CallID), acpsdk.WithUpdateStatus(finishedStatus(e)),
			acpsdk.WithUpdateContent(toolContent(e))))
	case agent.PlanChanged:
		return one(acpsdk.UpdatePlan(planEntries(e.Plan)...))
	case agent.InterventionFired:
		in := e.Intervention
		return one(acpsdk.UpdateAgentMessageText(fmt.Sprintf("\n\n> ◆ keel %s: %s\n\n", in.Kind, in.Why)))
	case agent.Notice:
		return one(acpsdk.UpdateAgentThoughtText("keel: " + e.Text + "\n"))
	case agent.Retrying:
		return one(acpsdk.UpdateAgentThoughtText("keel: " + e.Err + "\n"))
	case agent.TaskStopped:
		if e.Reason != agent.StopCompleted && e.Reason != agent.StopCancelled {
			return one(acpsdk.UpdateAgentMessageText(fmt.Sprintf("\n\n■ keel stopped (%s): %s\n", e.Reason, e.Message)))
		}
	}
	return nil
}

func one(u acpsdk.SessionUpdate) []acpsdk.SessionUpdate { return []acpsdk.SessionUpdate{u} }

// toolCall describes a call to the editor: a title with its subject, a
// kind, its arguments and the file it touches.
func (ss *session) toolCall(id, name, args string, status acpsdk.ToolCallStatus) acpsdk.ToolCallUpdate {
	title := name
	if k := agent.KeyArgument(args); k != "" {
		title += " " + k
	}
	kind := toolKind(name)
	u := acpsdk.ToolCallUpdate{ToolCallId: acpsdk.ToolCallId(id), Title: &title, Kind: &kind, Status: &status}
	var raw map[string]any
	if json.Unmarshal([]byte(args), &raw) == nil {
		u.RawInput = raw
		if p, ok := raw["path"].(string); ok && p != "" && kind != acpsdk.ToolKindExecute {
			if !filepath.IsAbs(p) {
				p = filepath.Join(ss.root, p)
			}
			u.Locations = []acpsdk.ToolCallLocation{{Path: p}}
		}
	}
	return u
}

// startToolCall is a tool_call update announcing a call.
func (ss *session) startToolCall(id, name, args string, status acpsdk.ToolCallStatus) acpsdk.SessionUpdate {
	u := ss.toolCall(id, name, args, status)
	opts := []acpsdk.ToolCallStartOpt{acpsdk.WithStartKind(*u.Kind), acpsdk.WithStartStatus(status), acpsdk.WithStartLocations(u.Locations)}
	if u.RawInput != nil {
		opts = append(opts, acpsdk.WithStartRawInput(u.RawInput))
	}
	return acpsdk.StartToolCall(u.ToolCallId, *u.Title, opts...)
}

// toolKind is the protocol's kind for keel's tools; others (MCP) are other.
func toolKind(name string) acpsdk.ToolKind {
	switch name {
	case tools.NameReadFile:
		return acpsdk.ToolKindRead
	case tools.NameListDir, tools.NameGlob, tools.NameGrep, "recall":
		return acpsdk.ToolKindSearch
	case tools.NameWriteFile, tools.NameEditFile:
		return acpsdk.ToolKindEdit
	case tools.NameRunCommand:
		return acpsdk.ToolKindExecute
	case agent.PlanToolName:
		return acpsdk.ToolKindThink
	}
	return acpsdk.ToolKindOther
}

func finishedStatus(e agent.ToolFinished) acpsdk.ToolCallStatus {
	if e.IsError || e.Denied {
		return acpsdk.ToolCallStatusFailed
	}
	return acpsdk.ToolCallStatusCompleted
}

// toolContent is a diff for each file the call wrote (its text when keel
// kept both sides), else the output the model got.
func toolContent(e agent.ToolFinished) []acpsdk.ToolCallContent {
	var out []acpsdk.ToolCallContent
	for _, c := range e.Changes {
		if c.ByCommand || c.AfterNotKept || (c.After == nil && len(c.Splices) > 0) {
			continue // a command's change, a large file's pieces or a streamed write: no whole text to show
		}
		if c.Existed {
			out = append(out, acpsdk.ToolDiffContent(c.Path, string(c.After), string(c.Before)))
		} else {
			out = append(out, acpsdk.ToolDiffContent(c.Path, string(c.After)))
		}
	}
	if len(out) > 0 {
		return out
	}
	text := e.Output
	if e.Denied {
		text = "denied: " + e.DenyReason
	}
	if len(text) > maxToolText {
		text = text[:maxToolText] + "\n…"
	}
	return []acpsdk.ToolCallContent{acpsdk.ToolContent(acpsdk.TextBlock(text))}
}

// planEntries is keel's plan as the protocol's: a failed or skipped step
// is done, and says so.
func planEntries(p agent.Plan) []acpsdk.PlanEntry {
	entries := make([]acpsdk.PlanEntry, 0, len(p.Steps))
	for _, s := range p.Steps {
		e := acpsdk.PlanEntry{Content: s.Title, Priority: acpsdk.PlanEntryPriorityMedium, Status: acpsdk.PlanEntryStatusPending}
		switch s.Status {
		case agent.StepActive:
			e.Status = acpsdk.PlanEntryStatusInProgress
		case agent.StepCompleted:
			e.Status = acpsdk.PlanEntryStatusCompleted
		case agent.StepFailed, agent.StepSkipped:
			e.Status, e.Content = acpsdk.PlanEntryStatusCompleted, s.Title+" ("+s.Status+")"
		}
		entries = append(entries, e)
	}
	return entries
}
