package acp

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/keel-dev/keel/agent/llmtest"
)

const planArgs = `{"goal":"fix the greeting","steps":[{"title":"read main.go","status":"active"},{"title":"edit main.go","status":"pending"}]}`

func start(t *testing.T, ed *editor, rounds ...llmtest.Round) (*acpsdk.ClientSideConnection, acpsdk.SessionId, string) {
	t.Helper()
	srv := llmtest.Start(t, llmtest.Rounds(rounds...))
	lastSrv = srv
	conn, dir := connect(t, srv, ed)
	ctx := context.Background()
	init, err := conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber,
		ClientCapabilities: acpsdk.ClientCapabilities{Fs: acpsdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if init.ProtocolVersion != acpsdk.ProtocolVersionNumber || !init.AgentCapabilities.LoadSession || init.AgentInfo.Name != "keel" {
		t.Fatalf("initialize = %+v", init)
	}
	root, _ := filepath.EvalSymlinks(dir)
	sess, err := conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: root, McpServers: []acpsdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	return conn, sess.SessionId, root
}

func prompt(t *testing.T, conn *acpsdk.ClientSideConnection, id acpsdk.SessionId, text string) acpsdk.StopReason {
	t.Helper()
	resp, err := conn.Prompt(context.Background(), acpsdk.PromptRequest{SessionId: id, Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock(text)}})
	if err != nil {
		for _, rq := range lastSrv.Requests() {
			m := rq.Messages[len(rq.Messages)-1]
			t.Logf("%s: %.300s", m.Role, m.Content)
		}
		t.Fatalf("prompt: %v", err)
	}
	return resp.StopReason
}

func TestPromptStreamsPlanToolCallsAndAnEditThroughTheEditor(t *testing.T) {
	ed := &editor{choice: optAllow, buffers: map[string]string{}, writes: map[string]string{}}
	conn, id, root := start(t, ed,
		llmtest.ToolRound(llmtest.Call{ID: "c1", Name: "update_plan", Args: planArgs}),
		llmtest.ToolRound(llmtest.Call{ID: "c2", Name: "read_file", Args: `{"path":"main.go"}`}),
		llmtest.ToolRound(llmtest.Call{ID: "c3", Name: "edit_file", Args: `{"path":"main.go","old_string":"hello, unsaved","new_string":"goodbye"}`}),
		llmtest.ToolRound(llmtest.Call{ID: "c4", Name: "update_plan", Args: strings.ReplaceAll(strings.ReplaceAll(planArgs, "active", "completed"), "pending", "completed")}),
		llmtest.TextRound("greeting fixed"),
	)
	path := filepath.Join(root, "main.go")
	ed.mu.Lock()
	ed.buffers[path] = "package main // hello, unsaved\n" // the editor's buffer differs from the disk
	ed.mu.Unlock()
	if r := prompt(t, conn, id, "fix the greeting"); r != acpsdk.StopReasonEndTurn {
		for _, rq := range lastSrv.Requests() {
			m := rq.Messages[len(rq.Messages)-1]
			t.Logf("%s: %.300s", m.Role, m.Content)
		}
		t.Fatalf("stop reason %s", r)
	}
	ed.mu.Lock()
	defer ed.mu.Unlock()
	if got := ed.writes[path]; got != "package main // goodbye\n" {
		t.Errorf("the edit reached the editor as %q", got)
	}
	if len(ed.asked) != 1 || string(ed.asked[0].ToolCall.ToolCallId) != "c3" {
		t.Fatalf("permission questions: %+v", ed.asked)
	}
	var plan *acpsdk.SessionUpdatePlan
	var diff *acpsdk.ToolCallContentDiff
	kinds := map[string]acpsdk.ToolKind{}
	var text strings.Builder
	for _, n := range ed.updates {
		u := n.Update
		switch {
		case u.Plan != nil && plan == nil:
			plan = u.Plan
		case u.ToolCall != nil:
			kinds[string(u.ToolCall.ToolCallId)] = u.ToolCall.Kind
		case u.ToolCallUpdate != nil && string(u.ToolCallUpdate.ToolCallId) == "c3":
			for _, c := range u.ToolCallUpdate.Content {
				if c.Diff != nil {
					diff = c.Diff
				}
			}
		case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil:
			text.WriteString(u.AgentMessageChunk.Content.Text.Text)
		}
	}
	if plan == nil || len(plan.Entries) != 2 || plan.Entries[0].Status != acpsdk.PlanEntryStatusInProgress || plan.Entries[0].Content != "read main.go" {
		t.Errorf("plan update = %+v", plan)
	}
	if kinds["c2"] != acpsdk.ToolKindRead || kinds["c3"] != acpsdk.ToolKindEdit || kinds["c1"] != acpsdk.ToolKindThink {
		t.Errorf("tool kinds = %v", kinds)
	}
	if diff == nil || diff.Path != path || diff.OldText == nil || !strings.Contains(*diff.OldText, "unsaved") || !strings.Contains(diff.NewText, "goodbye") {
		t.Errorf("edit diff = %+v", diff)
	}
	if !strings.Contains(text.String(), "greeting fixed") {
		t.Errorf("answer chunks = %q", text.String())
	}
}

func TestDeniedEditIsNotWritten(t *testing.T) {
	ed := &editor{choice: optDeny, buffers: map[string]string{}, writes: map[string]string{}}
	conn, id, _ := start(t, ed,
		llmtest.ToolRound(llmtest.Call{ID: "c1", Name: "write_file", Args: `{"path":"new.txt","content":"x"}`}),
		llmtest.TextRound("ok, not writing"),
	)
	if r := prompt(t, conn, id, "write new.txt"); r != acpsdk.StopReasonEndTurn {
		t.Fatalf("stop reason %s", r)
	}
	ed.mu.Lock()
	defer ed.mu.Unlock()
	if len(ed.writes) != 0 {
		t.Errorf("a denied write reached the editor: %v", ed.writes)
	}
	failed := false
	for _, n := range ed.updates {
		if u := n.Update.ToolCallUpdate; u != nil && string(u.ToolCallId) == "c1" && u.Status != nil && *u.Status == acpsdk.ToolCallStatusFailed {
			failed = true
		}
	}
	if !failed {
		t.Error("the denied call was not reported as failed")
	}
}

func TestCancelStopsThePrompt(t *testing.T) {
	ed := &editor{choice: optAllow, buffers: map[string]string{}, writes: map[string]string{}}
	conn, id, _ := start(t, ed, llmtest.Round{Text: "thinking about it for a long while", TextChunk: 4, Hang: true, HangAfter: 2})
	var once sync.Once
	ed.mu.Lock()
	ed.onMessage = func(string) {
		once.Do(func() { go conn.Cancel(context.Background(), acpsdk.CancelNotification{SessionId: id}) })
	}
	ed.mu.Unlock()
	if r := prompt(t, conn, id, "think"); r != acpsdk.StopReasonCancelled {
		t.Fatalf("stop reason %s, want cancelled", r)
	}
}

var lastSrv *llmtest.Server
