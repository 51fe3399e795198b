package acp

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/config"
	"github.com/keel-dev/keel/tools"
)

// editor is a test ACP client: it keeps every update, answers permission
// questions with its choice, and holds buffers for the fs methods.
type editor struct {
	mu        sync.Mutex
	updates   []acpsdk.SessionNotification
	asked     []acpsdk.RequestPermissionRequest
	choice    string
	buffers   map[string]string
	writes    map[string]string
	onMessage func(text string) // called with each agent message chunk
}

func (e *editor) SessionUpdate(_ context.Context, n acpsdk.SessionNotification) error {
	e.mu.Lock()
	e.updates = append(e.updates, n)
	f := e.onMessage
	e.mu.Unlock()
	if f != nil && n.Update.AgentMessageChunk != nil && n.Update.AgentMessageChunk.Content.Text != nil {
		f(n.Update.AgentMessageChunk.Content.Text.Text)
	}
	return nil
}

func (e *editor) RequestPermission(_ context.Context, p acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, p)
	return acpsdk.RequestPermissionResponse{Outcome: acpsdk.NewRequestPermissionOutcomeSelected(acpsdk.PermissionOptionId(e.choice))}, nil
}

func (e *editor) ReadTextFile(_ context.Context, p acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if b, ok := e.buffers[p.Path]; ok {
		return acpsdk.ReadTextFileResponse{Content: b}, nil
	}
	data, err := os.ReadFile(p.Path)
	return acpsdk.ReadTextFileResponse{Content: string(data)}, err
}

func (e *editor) WriteTextFile(_ context.Context, p acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.writes[p.Path] = p.Content
	e.buffers[p.Path] = p.Content
	return acpsdk.WriteTextFileResponse{}, nil
}

func (e *editor) CreateTerminal(context.Context, acpsdk.CreateTerminalRequest) (acpsdk.CreateTerminalResponse, error) {
	return acpsdk.CreateTerminalResponse{}, acpsdk.NewMethodNotFound("terminal/create")
}
func (e *editor) KillTerminal(context.Context, acpsdk.KillTerminalRequest) (acpsdk.KillTerminalResponse, error) {
	return acpsdk.KillTerminalResponse{}, nil
}
func (e *editor) TerminalOutput(context.Context, acpsdk.TerminalOutputRequest) (acpsdk.TerminalOutputResponse, error) {
	return acpsdk.TerminalOutputResponse{}, nil
}
func (e *editor) ReleaseTerminal(context.Context, acpsdk.ReleaseTerminalRequest) (acpsdk.ReleaseTerminalResponse, error) {
	return acpsdk.ReleaseTerminalResponse{}, nil
}
func (e *editor) WaitForTerminalExit(context.Context, acpsdk.WaitForTerminalExitRequest) (acpsdk.WaitForTerminalExitResponse, error) {
	return acpsdk.WaitForTerminalExitResponse{}, nil
}

// connect starts a Server on pipes with sessions built over srv in a
// fresh workspace, and returns the editor's connection to it.
func connect(t *testing.T, srv *llmtest.Server, ed *editor) (*acpsdk.ClientSideConnection, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main // hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(_ context.Context, req OpenRequest) (*Opened, error) {
		ws, err := tools.NewWorkspace(req.Cwd)
		if err != nil {
			return nil, err
		}
		if req.Files != nil {
			ws.UseClientFiles(req.Files)
		}
		set := tools.New(ws, tools.Options{})
		perms, err := tools.NewPolicy(ws, tools.PolicyOptions{Tools: set})
		if err != nil {
			return nil, err
		}
		pol := config.DefaultDisciplinePolicy(false)
		pol.Set("verify", false) // the fake model runs no checks after its edits
		client := llm.New(llm.Config{Name: "fake", BaseURL: srv.URL(), APIKey: "k", Model: "fake-model", IdleTimeout: 30 * time.Second})
		s := agent.New(agent.Options{Provider: &agent.RetryingProvider{Clients: []*llm.Client{client}}, ProviderName: "fake", Model: "fake-model",
			Tools: set, Permissions: perms, Gate: req.Gate, Asker: req.Asker, Confirmer: req.Confirmer, Workdir: ws.Root(),
			Discipline: pol, SystemPrompt: "test"})
		return &Opened{Session: s, Root: ws.Root(), Close: s.Close}, nil
	}
	agentIn, clientOut := io.Pipe()
	clientIn, agentOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		_ = Serve(ctx, Options{Version: "test", Open: open}, agentIn, agentOut)
		close(served)
	}()
	t.Cleanup(func() {
		cancel()
		clientOut.Close()
		agentOut.Close()
		<-served
	})
	return acpsdk.NewClientSideConnection(ed, clientOut, clientIn), dir
}
