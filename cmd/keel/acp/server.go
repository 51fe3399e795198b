package acp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"sync"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/tools"
)

// Options configure a Server.
type Options struct {
	Version string // keel's, for agentInfo
	// Open builds a session for the editor: a new one in req.Cwd, or the
	// datalog's req.ResumeID.
	Open func(ctx context.Context, req OpenRequest) (*Opened, error)
	// Log receives the connection's warnings (stderr); nil: none.
	Log io.Writer
}

// OpenRequest is what a session is built with: its directory, the
// session to resume, and the editor's side of the questions and files.
type OpenRequest struct {
	Cwd       string
	ResumeID  string // session/load: the datalog's session id
	Gate      agent.Gate
	Asker     agent.Asker
	Confirmer agent.PlanConfirmer
	Files     tools.ClientFiles // nil: the editor offered no file access
}

// Opened is a built session and how to close it.
type Opened struct {
	Session *agent.Session
	Root    string // the workspace's root, for the paths the editor is shown
	Close   func()
}

// Server is the agent side of one ACP connection.
type Server struct {
	opts Options
	conn *acpsdk.AgentSideConnection

	mu       sync.Mutex
	caps     acpsdk.ClientCapabilities
	sessions map[acpsdk.SessionId]*session
}

// Serve speaks ACP on in and out until the editor closes the connection
// or ctx ends, then closes every session.
func Serve(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	s := &Server{opts: opts, sessions: map[acpsdk.SessionId]*session{}}
	// The connection starts reading at once, and a request's handler reads
	// s.conn: nothing is read until s.conn and the logger are set.
	gate := &gatedReader{r: in, ready: make(chan struct{})}
	s.conn = acpsdk.NewAgentSideConnection(s, out, gate)
	logTo := opts.Log
	if logTo == nil {
		logTo = io.Discard
	}
	s.conn.SetLogger(slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: slog.LevelWarn})))
	close(gate.ready)
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
	}
	s.closeAll()
	return nil
}

func (s *Server) closeAll() {
	s.mu.Lock()
	all := s.sessions
	s.sessions = map[acpsdk.SessionId]*session{}
	s.mu.Unlock()
	for _, ss := range all {
		ss.close()
	}
}

func (s *Server) session(id acpsdk.SessionId) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.sessions[id]
	if !ok {
		return nil, acpsdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("no session %q: start one with session/new or session/load", id)})
	}
	return ss, nil
}

// Initialize answers with keel's capabilities and notes the editor's.
func (s *Server) Initialize(_ context.Context, p acpsdk.InitializeRequest) (acpsdk.InitializeResponse, error) {
	s.mu.Lock()
	s.caps = p.ClientCapabilities
	s.mu.Unlock()
	return acpsdk.InitializeResponse{
		ProtocolVersion: acpsdk.ProtocolVersionNumber,
		AgentCapabilities: acpsdk.AgentCapabilities{LoadSession: true,
			PromptCapabilities: acpsdk.PromptCapabilities{EmbeddedContext: true}},
		AgentInfo:   &acpsdk.Implementation{Name: "keel", Version: s.opts.Version},
		AuthMethods: []acpsdk.AuthMethod{},
	}, nil
}

// Authenticate has nothing to do: keel reads its keys from its own
// configuration.
func (s *Server) Authenticate(context.Context, acpsdk.AuthenticateRequest) (acpsdk.AuthenticateResponse, error) {
	return acpsdk.AuthenticateResponse{}, nil
}

// NewSession builds a session in the editor's directory.
func (s *Server) NewSession(ctx context.Context, p acpsdk.NewSessionRequest) (acpsdk.NewSessionResponse, error) {
	ss, err := s.open(ctx, p.Cwd, "")
	if err != nil {
		return acpsdk.NewSessionResponse{}, err
	}
	return acpsdk.NewSessionResponse{SessionId: ss.id}, nil
}

// LoadSession resumes a stored session and replays it to the editor
// before answering, as the protocol asks.
func (s *Server) LoadSession(ctx context.Context, p acpsdk.LoadSessionRequest) (acpsdk.LoadSessionResponse, error) {
	ss, err := s.open(ctx, p.Cwd, string(p.SessionId))
	if err != nil {
		return acpsdk.LoadSessionResponse{}, err
	}
	if err := ss.replay(ctx); err != nil {
		return acpsdk.LoadSessionResponse{}, err
	}
	return acpsdk.LoadSessionResponse{}, nil
}

// open builds a session and registers it under the datalog's id (a new
// random one when the datalog is off).
func (s *Server) open(ctx context.Context, cwd, resume string) (*session, error) {
	ss := &session{conn: s.conn}
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	req := OpenRequest{Cwd: cwd, ResumeID: resume, Gate: ss, Asker: ss, Confirmer: ss}
	if caps.Fs.ReadTextFile || caps.Fs.WriteTextFile {
		req.Files = &clientFiles{s: ss, read: caps.Fs.ReadTextFile, write: caps.Fs.WriteTextFile}
	}
	opened, err := s.opts.Open(ctx, req)
	if err != nil {
		return nil, err
	}
	ss.agent, ss.closeFn, ss.root = opened.Session, opened.Close, opened.Root
	ss.id = acpsdk.SessionId(opened.Session.ID())
	if ss.id == "" {
		ss.id = acpsdk.SessionId(randomID())
	}
	ss.start()
	s.mu.Lock()
	if old := s.sessions[ss.id]; old != nil {
		defer old.close() // loaded twice: the newer one answers
	}
	s.sessions[ss.id] = ss
	s.mu.Unlock()
	return ss, nil
}

// Prompt runs one task and answers once it stopped.
func (s *Server) Prompt(ctx context.Context, p acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
	ss, err := s.session(p.SessionId)
	if err != nil {
		return acpsdk.PromptResponse{}, err
	}
	return ss.prompt(ctx, promptText(p.Prompt))
}

// Cancel stops the session's running task.
func (s *Server) Cancel(_ context.Context, p acpsdk.CancelNotification) error {
	if ss, err := s.session(p.SessionId); err == nil {
		ss.agent.Cancel()
	}
	return nil
}

// CloseSession ends a session; keel does not advertise it, but honours it.
func (s *Server) CloseSession(_ context.Context, p acpsdk.CloseSessionRequest) (acpsdk.CloseSessionResponse, error) {
	s.mu.Lock()
	ss := s.sessions[p.SessionId]
	delete(s.sessions, p.SessionId)
	s.mu.Unlock()
	if ss != nil {
		ss.close()
	}
	return acpsdk.CloseSessionResponse{}, nil
}

// ListSessions is not offered: keel log lists them.
func (s *Server) ListSessions(context.Context, acpsdk.ListSessionsRequest) (acpsdk.ListSessionsResponse, error) {
	return acpsdk.ListSessionsResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodSessionList)
}

// ResumeSession is not offered: session/load resumes.
func (s *Server) ResumeSession(context.Context, acpsdk.ResumeSessionRequest) (acpsdk.ResumeSessionResponse, error) {
	return acpsdk.ResumeSessionResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodSessionResume)
}

// SetSessionMode is not offered: keel has one mode.
func (s *Server) SetSessionMode(context.Context, acpsdk.SetSessionModeRequest) (acpsdk.SetSessionModeResponse, error) {
	return acpsdk.SetSessionModeResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodSessionSetMode)
}

// SetSessionConfigOption is not offered.
func (s *Server) SetSessionConfigOption(context.Context, acpsdk.SetSessionConfigOptionRequest) (acpsdk.SetSessionConfigOptionResponse, error) {
	return acpsdk.SetSessionConfigOptionResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodSessionSetConfigOption)
}

func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// gatedReader holds its first Read until ready is closed.
type gatedReader struct {
	r     io.Reader
	ready chan struct{}
}

func (g *gatedReader) Read(p []byte) (int, error) {
	<-g.ready
	return g.r.Read(p)
}
