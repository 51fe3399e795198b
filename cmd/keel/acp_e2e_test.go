package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/keel-dev/keel/agent/llmtest"
)

// acpRecorder is a Go ACP client that keeps the updates it is sent.
type acpRecorder struct {
	mu      sync.Mutex
	updates []acpsdk.SessionUpdate
}

func (r *acpRecorder) SessionUpdate(_ context.Context, n acpsdk.SessionNotification) error {
	r.mu.Lock()
	r.updates = append(r.updates, n.Update)
	r.mu.Unlock()
	return nil
}
func (r *acpRecorder) RequestPermission(context.Context, acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error) {
	return acpsdk.RequestPermissionResponse{Outcome: acpsdk.NewRequestPermissionOutcomeCancelled()}, nil
}
func (r *acpRecorder) ReadTextFile(context.Context, acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
	return acpsdk.ReadTextFileResponse{}, acpsdk.NewMethodNotFound("fs/read_text_file")
}
func (r *acpRecorder) WriteTextFile(context.Context, acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
	return acpsdk.WriteTextFileResponse{}, acpsdk.NewMethodNotFound("fs/write_text_file")
}
func (r *acpRecorder) CreateTerminal(context.Context, acpsdk.CreateTerminalRequest) (acpsdk.CreateTerminalResponse, error) {
	return acpsdk.CreateTerminalResponse{}, acpsdk.NewMethodNotFound("terminal/create")
}
func (r *acpRecorder) KillTerminal(context.Context, acpsdk.KillTerminalRequest) (acpsdk.KillTerminalResponse, error) {
	return acpsdk.KillTerminalResponse{}, nil
}
func (r *acpRecorder) TerminalOutput(context.Context, acpsdk.TerminalOutputRequest) (acpsdk.TerminalOutputResponse, error) {
	return acpsdk.TerminalOutputResponse{}, nil
}
func (r *acpRecorder) ReleaseTerminal(context.Context, acpsdk.ReleaseTerminalRequest) (acpsdk.ReleaseTerminalResponse, error) {
	return acpsdk.ReleaseTerminalResponse{}, nil
}
func (r *acpRecorder) WaitForTerminalExit(context.Context, acpsdk.WaitForTerminalExitRequest) (acpsdk.WaitForTerminalExitResponse, error) {
	return acpsdk.WaitForTerminalExitResponse{}, nil
}

// startACP runs the real binary's keel acp with home's datalog and
// returns a connected, initialized client and a function ending keel.
func startACP(t *testing.T, home string, srv *llmtest.Server, rec *acpRecorder) (*acpsdk.ClientSideConnection, func()) {
	t.Helper()
	cmd := exec.Command(keelBinary(t), "acp")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"), "OPENAI_API_KEY=sk-test-e2e-secret-123456", "OPENAI_BASE_URL=" + srv.URL()}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	conn := acpsdk.NewClientSideConnection(rec, stdin, stdout)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := conn.Initialize(ctx, acpsdk.InitializeRequest{ProtocolVersion: acpsdk.ProtocolVersionNumber}); err != nil {
		t.Fatalf("initialize: %v (stderr %s)", err, stderr.String())
	}
	return conn, func() {
		stdin.Close() // the editor leaves: keel ends its sessions and exits
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("keel acp exited with %v: %s", err, stderr.String())
			}
		case <-time.After(time.Minute):
			_ = cmd.Process.Kill()
			t.Errorf("keel acp did not exit after its stdin closed: %s", stderr.String())
		}
	}
}

// session/load resumes a session from the datalog and replays it.
func TestACPLoadReplaysAStoredSession(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{ID: "r1", Name: "read_file", Args: `{"path":"main.go"}`}),
		llmtest.TextRound("main.go is empty"),
		llmtest.TextRound("still empty"),
	))
	home, dir := t.TempDir(), project(t)
	dir, _ = filepath.EvalSymlinks(dir)
	ctx := context.Background()
	conn, stop := startACP(t, home, srv, &acpRecorder{})
	sess, err := conn.NewSession(ctx, acpsdk.NewSessionRequest{Cwd: dir, McpServers: []acpsdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := conn.Prompt(ctx, acpsdk.PromptRequest{SessionId: sess.SessionId, Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock("what is in main.go?")}})
	if err != nil || resp.StopReason != acpsdk.StopReasonEndTurn {
		t.Fatalf("prompt: %v %v", resp.StopReason, err)
	}
	stop()

	rec := &acpRecorder{}
	conn, stop = startACP(t, home, srv, rec)
	defer stop()
	if _, err := conn.LoadSession(ctx, acpsdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: dir, McpServers: []acpsdk.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	rec.mu.Lock()
	var user, answer, call bool
	for _, u := range rec.updates {
		switch {
		case u.UserMessageChunk != nil && u.UserMessageChunk.Content.Text != nil && u.UserMessageChunk.Content.Text.Text == "what is in main.go?":
			user = true
		case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil && u.AgentMessageChunk.Content.Text.Text == "main.go is empty":
			answer = true
		case u.ToolCall != nil && u.ToolCall.ToolCallId == "r1" && u.ToolCall.Kind == acpsdk.ToolKindRead:
			call = true
		}
	}
	rec.mu.Unlock()
	if !user || !answer || !call {
		t.Fatalf("replay: user prompt %v, answer %v, read call %v", user, answer, call)
	}
	resp, err = conn.Prompt(ctx, acpsdk.PromptRequest{SessionId: sess.SessionId, Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock("and now?")}})
	if err != nil || resp.StopReason != acpsdk.StopReasonEndTurn {
		t.Fatalf("prompt after load: %v %v", resp.StopReason, err)
	}
	last := srv.Requests()[len(srv.Requests())-1].Messages
	if !strings.Contains(last[1].Content, "what is in main.go?") {
		t.Errorf("the loaded session's history did not reach the model: %+v", last[1])
	}
}
