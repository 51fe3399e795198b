package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// State is where a server is in its life.
type State int

// The states. A failed or stopped server starts again on its next use.
const (
	StateIdle     State = iota // not started yet
	StateStarting              // connecting and listing its tools
	StateReady                 // its tools can be called
	StateFailed                // could not start
	StateStopped               // exited or lost its connection after starting
	StateDisabled              // its configuration cannot be used
)

// String names the state for /mcp and keel mcp list.
func (s State) String() string {
	return [...]string{"not started", "starting", "ready", "failed", "stopped", "disabled"}[s]
}

// errClosed is the failure of a start keel cancelled because it is exiting.
var errClosed = errors.New("keel is shutting MCP servers down")

// server is one configured server and its connection, when it has one.
type server struct {
	cfg      ServerConfig
	opts     *Options
	stderr   *tailBuffer
	noise    *tailBuffer // stdout lines that were not JSON-RPC, skipped
	progress progressRoutes
	auth     *authSeen // an HTTP server's last 401, for the start's error
	signin   *signIn   // an HTTP server's OAuth sign-in, with Options.TokenFile

	mu        sync.Mutex
	state     State
	err       error
	link      *link         // the live connection, when ready
	tools     []*tool       // last listed, kept while stopped so the model can call them again
	listed    bool          // the server listed its tools at least once
	omitted   int           // tools left out beyond MaxTools
	resources int           // resources it listed at its last start
	prompts   []*sdk.Prompt // its prompts, as listed at its last start
	done      chan struct{}
	cancel    context.CancelFunc // cancels the start in flight
	closed    bool
	starts    int
	reported  bool // the current failure was reported
}

func newServer(cfg ServerConfig, opts *Options) *server {
	s := &server{cfg: cfg, opts: opts, stderr: newTailBuffer(opts.StderrMax),
		noise: newTailBuffer(opts.StderrMax), done: make(chan struct{})}
	close(s.done)
	if p := cfg.problem(); p != "" {
		s.state, s.err = StateDisabled, errors.New(p)
	}
	return s
}

// start begins connecting unless the server is ready, starting, disabled
// or closed; the returned channel is closed when the start has ended.
func (s *server) start() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed, s.state == StateStarting, s.state == StateReady, s.state == StateDisabled:
		return s.done
	}
	ctx, cancel := within(context.Background(), s.cfg.StartTimeout)
	s.state, s.cancel, s.done = StateStarting, cancel, make(chan struct{})
	s.starts++
	go s.connect(ctx, cancel, s.done)
	return s.done
}

// connect dials the server and records the outcome.
func (s *server) connect(ctx context.Context, cancel context.CancelFunc, done chan struct{}) {
	defer cancel()
	defer close(done)
	l, got, err := s.dial(ctx)
	s.mu.Lock()
	if err == nil && s.closed {
		err = errClosed
		defer l.end()
	}
	if err != nil {
		s.state, s.err = StateFailed, err
		notify := !s.reported && !s.closed
		s.reported = true
		s.mu.Unlock()
		if notify {
			s.opts.Notify(fmt.Sprintf("MCP server %q could not start: %v (/mcp shows its state; keel tries again when one of its tools is called)", s.cfg.Name, err))
		}
		return
	}
	s.state, s.err, s.link, s.reported, s.listed = StateReady, nil, l, false, true
	s.tools, s.omitted = s.adapt(got.tools)
	s.resources, s.prompts = got.resources, got.prompts
	s.mu.Unlock()
	go s.watch(l)
}

// watch waits for the connection to end and reports it.
func (s *server) watch(l *link) {
	_ = l.sess.Wait()
	s.lost(l)
}

// lost handles a connection that ended without keel closing it: the
// server is stopped (reported once) and starts again on its next use. It
// returns why it stopped.
func (s *server) lost(l *link) string {
	s.mu.Lock()
	first := s.link == l
	if first {
		s.link, s.state = nil, StateStopped
	}
	s.mu.Unlock()
	why := l.end() // a second caller waits for the first's answer
	if !first {
		return why
	}
	s.mu.Lock()
	s.err = errors.New(why)
	notify := !s.reported && !s.closed
	s.reported = true
	s.mu.Unlock()
	if notify {
		s.opts.Notify(fmt.Sprintf("MCP server %q stopped (%s); keel starts it again when one of its tools is called", s.cfg.Name, why))
	}
	return why
}

// ready starts the server if needed and waits for it (or ctx): the
// connection to call, or why there is none.
func (s *server) ready(ctx context.Context) (*link, error) {
	select {
	case <-s.start():
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StateReady {
		return s.link, nil
	}
	if s.err != nil {
		return nil, s.err
	}
	return nil, fmt.Errorf("it is %s", s.state)
}

// close stops the server for good: a start in flight is cancelled and
// waited for, the connection closed and the process group killed.
func (s *server) close() {
	s.mu.Lock()
	s.closed = true
	l, cancel, done := s.link, s.cancel, s.done
	s.link = nil
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	<-done
	if l != nil {
		l.end()
	}
}
