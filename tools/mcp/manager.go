package mcp

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/keel-dev/keel/tools"
)

// Manager runs the configured servers and offers their tools. It is a
// tools.Group: put it in the session's tool list and the policy's, and
// the agent offers Members in its place. It is safe for concurrent use.
type Manager struct {
	opts     Options
	servers  []*server    // by name
	resTools []tools.Tool // list_resources and read_resource
}

var _ tools.Group = (*Manager)(nil)

// New makes a manager for the servers; nothing starts until Start or a
// tool's first call.
func New(servers []ServerConfig, opts Options) *Manager {
	m := &Manager{opts: opts.withDefaults()}
	for _, c := range servers {
		m.servers = append(m.servers, newServer(c, &m.opts))
	}
	slices.SortFunc(m.servers, func(a, b *server) int { return strings.Compare(a.cfg.Name, b.cfg.Name) })
	m.resTools = m.resourceTools()
	return m
}

// Start starts every usable server in the background and returns at
// once: keel's start-up never waits for a server.
func (m *Manager) Start() {
	for _, s := range m.servers {
		s.start()
	}
}

// WaitStarted waits until no server is starting any more, or ctx ends
// (keel mcp list; tests). Each start is bounded by its startup timeout.
func (m *Manager) WaitStarted(ctx context.Context) {
	for _, s := range m.servers {
		s.mu.Lock()
		done := s.done
		s.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return
		}
	}
}

// Close stops every server and kills their process groups; starts in
// flight are cancelled. Call it when keel exits.
func (m *Manager) Close() {
	var wg sync.WaitGroup
	for _, s := range m.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.close()
		}()
	}
	wg.Wait()
}

// Name is the prefix of every member's name.
func (m *Manager) Name() string { return Prefix }

// Description says what the group stands for; the group itself is never
// offered to the model.
func (m *Manager) Description() string { return "the tools of the configured MCP servers" }

// Schema is an empty object schema.
func (m *Manager) Schema() json.RawMessage { return emptySchema }

// Class is Execute: the members carry their own classes.
func (m *Manager) Class() tools.Class { return tools.Execute }

// Run refuses: only members are called.
func (m *Manager) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.ErrResult("call one of the MCP servers' tools (mcp__SERVER__TOOL), not %s", Prefix), nil
}

// Members are the tools of every server that listed them, ready or
// stopped (a call starts a stopped server again), by server name, then
// the resource tools once a server offers resources.
func (m *Manager) Members() []tools.Tool {
	var out []tools.Tool
	for _, s := range m.servers {
		s.mu.Lock()
		for _, t := range s.tools {
			out = append(out, t)
		}
		s.mu.Unlock()
	}
	if m.offersResources() {
		out = append(out, m.resTools...)
	}
	return out
}

// Member finds a tool by keel's name, including one of a server that has
// not listed its tools yet.
func (m *Manager) Member(name string) (tools.Tool, bool) {
	for _, t := range m.resTools {
		if t.Name() == name && len(m.servers) > 0 {
			return t, true
		}
	}
	srv := serverOf(name)
	for _, s := range m.servers {
		if s.cfg.Name == srv {
			if t, ok := s.member(name); ok {
				return t, true
			}
		}
	}
	return nil, false
}

// Status is one server as /mcp and keel mcp list show it.
type Status struct {
	Name      string
	Transport string // "stdio" or "http"
	Target    string // the command line, or the URL without its query
	State     State
	Err       string // why it failed, stopped or is disabled
	Tools     []ToolInfo
	Omitted   int // tools beyond MaxTools, not offered
	Starts    int // how many times keel started it
	Stderr    string
	Noise     string   // the last stdout lines that were not JSON-RPC (skipped)
	Resources int      // resources it listed when it started
	Prompts   []string // its prompts as slash commands: "SERVER:PROMPT"
}

// ToolInfo is one tool in a Status.
type ToolInfo struct {
	Name     string // keel's
	Original string // the server's
	ReadOnly bool   // runs without asking (trust_read_only and readOnlyHint)
}

// Status reports every server, by name; stderrLines is how many of the
// last lines of each server's stderr to include.
func (m *Manager) Status(stderrLines int) []Status {
	out := make([]Status, 0, len(m.servers))
	for _, s := range m.servers {
		out = append(out, s.status(stderrLines))
	}
	return out
}

func (s *server) status(stderrLines int) Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Name: s.cfg.Name, Transport: s.cfg.Transport(), Target: s.cfg.target(), State: s.state,
		Omitted: s.omitted, Starts: s.starts, Stderr: s.stderr.Tail(stderrLines), Noise: s.noise.Tail(stderrLines),
		Resources: s.resources}
	for _, p := range s.prompts {
		st.Prompts = append(st.Prompts, PromptCommand(s.cfg.Name, p.Name))
	}
	if s.err != nil && s.state != StateReady {
		st.Err = s.err.Error()
	}
	for _, t := range s.tools {
		st.Tools = append(st.Tools, ToolInfo{Name: t.name, Original: t.orig, ReadOnly: t.class == tools.ReadOnly})
	}
	return st
}

// target is what the server runs or where it is, for status lines; a
// URL's query (which may carry a token) is left out.
func (c ServerConfig) target() string {
	if c.URL == "" {
		return strings.TrimSpace(c.Command + " " + strings.Join(c.Args, " "))
	}
	u, err := url.Parse(c.URL)
	if err != nil {
		return "(an invalid URL)"
	}
	if u.RawQuery != "" {
		u.RawQuery = "…"
	}
	u.User = nil
	return u.String()
}
