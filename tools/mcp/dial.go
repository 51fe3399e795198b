package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// link is a live connection: the session and, for stdio, the process.
type link struct {
	sess *sdk.ClientSession
	cmd  *exec.Cmd

	ended sync.Once
	why   string // how it ended, once ended
}

// end shuts the link down once; every caller gets how it ended.
func (l *link) end() string {
	l.ended.Do(func() { l.why = l.shutdown() })
	return l.why
}

// close ends the session (stdin closed, then SIGTERM and SIGKILL if the
// server lingers), kills what is left of its process group and says how
// the server ended.
func (l *link) close() string {
	err := l.sess.Close()
	if l.cmd == nil {
		return "the connection closed"
	}
	killGroup(l.cmd)
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.String()
	}
	return "its process exited"
}

// closeWait bounds how long closing a connection may take: an HTTP
// server that never answers the session's DELETE does not hold keel.
const closeWait = 3 * time.Second

// shutdown is close within closeWait; past it, a stdio server's process
// group is killed and the close is left to finish on its own.
func (l *link) shutdown() string {
	why := make(chan string, 1)
	go func() { why <- l.close() }()
	select {
	case w := <-why:
		return w
	case <-time.After(closeWait):
		if l.cmd != nil {
			killGroup(l.cmd)
		}
		return "it did not close in time"
	}
}

// terminateWait is how long a stdio server has to exit once its stdin is
// closed before it gets SIGTERM (and as long again before SIGKILL).
const terminateWait = 250 * time.Millisecond

// stopGrace is how long a server run through keel's helper has to stop
// everything it started before its process group is killed.
const stopGrace = 2 * time.Second

// dial connects, initializes and lists what the server offers, within
// ctx.
func (s *server) dial(ctx context.Context) (*link, listing, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: "keel", Version: s.opts.Version}, s.clientOptions())
	transport, cmd := s.transport()
	sess, err := client.Connect(ctx, transport, nil)
	if err != nil {
		if cmd != nil {
			killGroup(cmd)
		}
		return nil, listing{}, s.explain(ctx, err, cmd)
	}
	l := &link{sess: sess, cmd: cmd}
	got, err := list(ctx, sess)
	if err != nil {
		l.end()
		return nil, listing{}, s.explain(ctx, err, nil)
	}
	return l, got, nil
}

// transport is the stdio command (in its own process group, with the
// scrubbed environment, stderr captured and stdout lines that are not
// JSON-RPC kept apart) or the HTTP endpoint.
func (s *server) transport() (sdk.Transport, *exec.Cmd) {
	if s.cfg.URL != "" {
		hc := *s.opts.HTTPClient
		s.auth = &authSeen{}
		hc.Transport = &headerTransport{base: hc.Transport, headers: s.expanded(s.cfg.Headers), auth: s.auth}
		t := &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: &hc, DisableStandaloneSSE: true}
		if h := s.oauth(); h != nil {
			t.OAuthHandler = h
		}
		return t, nil
	}
	cmd := s.command()
	cmd.Dir = s.opts.Dir
	cmd.Env = s.env()
	cmd.Stderr = s.stderr
	cmd.WaitDelay = time.Second // a child keeping stderr open does not hold keel
	if cmd.SysProcAttr == nil {
		setGroup(cmd)
	}
	return &stdioTransport{cmd: cmd, noise: s.noise, terminate: terminateWait}, cmd
}

// command is the server's command line, through Options.Command when
// set (falling back to running it directly if that fails).
func (s *server) command() *exec.Cmd {
	argv := append([]string{s.cfg.Command}, s.cfg.Args...)
	if s.opts.Command != nil {
		if cmd, err := s.opts.Command(argv); err == nil {
			return cmd
		}
	}
	return exec.Command(argv[0], argv[1:]...)
}

// env is the base environment with the server's own variables on top.
func (s *server) env() []string {
	env := slices.Clone(s.opts.Env)
	vars := s.expanded(s.cfg.Env)
	for _, k := range sortedKeys(vars) {
		env = append(env, k+"="+vars[k]) // exec keeps the last of duplicates
	}
	return env
}

// varRef is ${NAME}; a bare $ stays as written (tokens may hold one).
var varRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expanded returns m with ${VAR} in its values replaced from Getenv.
func (s *server) expanded(m map[string]string) map[string]string {
	return expand(m, s.opts.Getenv)
}

// expand returns m with ${VAR} in its values replaced from getenv.
func expand(m map[string]string, getenv func(string) string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = varRef.ReplaceAllStringFunc(v, func(ref string) string {
			return getenv(ref[2 : len(ref)-1])
		})
	}
	return out
}

// explain makes a start failure one clear clause: a timeout names its
// setting; a stdio server that exited before answering says so, with the
// last line of its stderr, instead of the SDK's "connection closed".
func (s *server) explain(ctx context.Context, err error, cmd *exec.Cmd) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		err = fmt.Errorf("it did not answer within %s (startup_timeout in [mcp.servers.%s] sets the limit)", s.cfg.StartTimeout, s.cfg.Name)
	case errors.Is(ctx.Err(), context.Canceled):
		return errClosed
	case errors.As(err, new(*LoginNeededError)):
		return (&LoginNeededError{Name: s.cfg.Name})
	case cmd != nil && cmd.ProcessState != nil:
		err = fmt.Errorf("it exited before answering (%s)", cmd.ProcessState)
	case s.auth != nil && (s.signin == nil || !s.auth.bearer()) && s.auth.problem(s.cfg.Name) != nil:
		return s.auth.problem(s.cfg.Name)
	}
	if last := lastLine(s.stderr.Tail(1)); last != "" && s.cfg.URL == "" {
		return fmt.Errorf("%w; its stderr ends: %s", err, last)
	}
	return err
}

// lastLine trims a stderr line for a message.
func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// listTools lists the server's tools, at most MaxTools of them, and
// counts (up to a bound) how many were left out.
func listTools(ctx context.Context, sess *sdk.ClientSession) ([]*sdk.Tool, error) {
	var out []*sdk.Tool
	seen := 0
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if seen++; seen > 100*MaxTools {
			break // a server paging forever
		}
		out = append(out, t)
	}
	return out, nil
}

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	auth    *authSeen // notes a 401
}

// RoundTrip implements http.RoundTripper.
func (h *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	base := h.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err == nil && h.auth != nil {
		h.auth.note(resp, r)
	}
	return resp, err
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
