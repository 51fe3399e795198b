package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/keel-dev/keel/tools"
)

// tool is one of a server's tools as keel offers it. A pending tool
// (orig "") stands for a name the model called before its server listed
// its tools: Run waits for the server and looks the name up then.
type tool struct {
	srv    *server
	name   string // keel's: mcp__SERVER__TOOL
	orig   string // the server's
	desc   string
	schema json.RawMessage
	class  tools.Class
}

var (
	_ tools.Tool        = (*tool)(nil)
	_ tools.Progressive = (*tool)(nil)
)

func (t *tool) Name() string            { return t.name }
func (t *tool) Description() string     { return t.desc }
func (t *tool) Schema() json.RawMessage { return t.schema }
func (t *tool) Class() tools.Class      { return t.class }

// maxDescription caps a server's tool description (it is sent every round).
const maxDescription = 2048

// adapt turns the listed tools into keel's, at most MaxTools, with names
// made unique; it returns them and how many were left out.
func (s *server) adapt(list []*sdk.Tool) ([]*tool, int) {
	taken := map[string]bool{}
	var out []*tool
	for _, st := range list {
		if len(out) == MaxTools {
			break
		}
		name := ToolName(s.cfg.Name, st.Name)
		if taken[name] {
			name = hashedName(s.cfg.Name, st.Name)
		}
		taken[name] = true
		out = append(out, &tool{srv: s, name: name, orig: st.Name, desc: describe(s.cfg.Name, st),
			schema: inputSchema(st.InputSchema), class: s.classOf(st)})
	}
	return out, len(list) - len(out)
}

// classOf is Execute, or ReadOnly for a tool the server marks read-only
// when the user trusts the server's marks (trust_read_only).
func (s *server) classOf(st *sdk.Tool) tools.Class {
	if s.cfg.TrustReadOnly && st.Annotations != nil && st.Annotations.ReadOnlyHint {
		return tools.ReadOnly
	}
	return tools.Execute
}

// describe is the description the model reads, naming the server.
func describe(server string, st *sdk.Tool) string {
	d := strings.TrimSpace(st.Description)
	if d == "" {
		d = st.Title
	}
	if len(d) > maxDescription {
		d = d[:maxDescription] + "…"
	}
	return fmt.Sprintf("[MCP server %s, tool %s] %s", server, st.Name, d)
}

// emptySchema is offered when a server's schema is unusable.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// inputSchema is the server's input schema as an object schema, which is
// what function calling accepts.
func inputSchema(in any) json.RawMessage {
	b, err := json.Marshal(in)
	var m map[string]any
	if err != nil || len(b) > 64<<10 || json.Unmarshal(b, &m) != nil || m == nil {
		return emptySchema
	}
	if t, ok := m["type"]; ok && t != "object" {
		return emptySchema
	}
	m["type"] = "object"
	if _, ok := m["properties"]; !ok {
		m["properties"] = map[string]any{}
	}
	if b, err = json.Marshal(m); err != nil {
		return emptySchema
	}
	return b
}

// Run waits for the server (starting it again if it stopped), calls the
// tool within the call timeout and returns its content, capped. A call an
// HTTP server refused because it no longer knows the session (it was
// restarted) never ran: it is made again once on a new connection.
func (t *tool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	return t.RunProgress(ctx, args, nil)
}

// RunProgress is Run with the server's progress notifications for the
// call handed to report (nil: not asked for).
func (t *tool) RunProgress(ctx context.Context, args json.RawMessage, report func(tools.Progress)) (tools.Result, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	res, retry := t.call(ctx, args, report)
	if retry {
		res, _ = t.call(ctx, args, report)
	}
	return res, nil
}

// call makes one attempt; retry reports a call the server refused unrun
// because its session is gone (the server is marked stopped first).
func (t *tool) call(ctx context.Context, args json.RawMessage, report func(tools.Progress)) (res tools.Result, retry bool) {
	name := t.srv.cfg.Name
	l, err := t.srv.ready(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return tools.ErrResult("cancelled while the MCP server %q was starting", name), false
		}
		return tools.ErrResult("the MCP server %q is not available: %v", name, err), false
	}
	orig, ok := t.srv.original(t.name)
	if !ok {
		return tools.ErrResult("the MCP server %q has no tool %s; its tools are: %s", name, t.name, t.srv.toolList()), false
	}
	cctx, cancel := within(ctx, t.srv.cfg.CallTimeout)
	defer cancel()
	params := &sdk.CallToolParams{Name: orig, Arguments: args}
	if report != nil {
		token, remove := t.srv.progress.add(report)
		// The SDK hands notifications to their handler in order but apart
		// from the response, which may overtake them: the route stays a
		// little after the call so the last steps still arrive.
		defer time.AfterFunc(progressGrace, remove)
		params.SetProgressToken(token)
	}
	out, err := l.sess.CallTool(cctx, params)
	switch {
	case ctx.Err() != nil:
		return tools.ErrResult("cancelled: keel stopped waiting for %s and told the server", t.name), false
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		return tools.ErrResult("%s did not answer within %s: keel stopped waiting and told the server to cancel the call (call_timeout in [mcp.servers.%s] sets the limit)",
			t.name, t.srv.cfg.CallTimeout, name), false
	case errors.Is(err, sdk.ErrSessionMissing):
		why := t.srv.lost(l) // the watcher may be handling it too: both get how it ended
		return tools.ErrResult("the MCP server %q lost its session (%s) and did not run the call", name, why), true
	case connectionLost(err):
		why := t.srv.lost(l)
		return tools.ErrResult("the MCP server %q stopped during the call (%s); keel starts it again when one of its tools is called", name, why), false
	case err != nil:
		return tools.ErrResult("%s failed: %v", t.name, err), false
	}
	return t.srv.result(out), false
}

// original is the server's name for one of its tools, by keel's name.
func (s *server) original(name string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tools {
		if t.name == name {
			return t.orig, true
		}
	}
	return "", false
}

// toolList names the server's tools for a message.
func (s *server) toolList() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.tools) == 0 {
		return "none"
	}
	names := make([]string, len(s.tools))
	for i, t := range s.tools {
		names[i] = t.name
	}
	return strings.Join(names, ", ")
}

// member finds one of the server's tools by keel's name: listed, or
// pending while the server has never listed its tools.
func (s *server) member(name string) (*tool, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tools {
		if t.name == name {
			return t, true
		}
	}
	if s.listed || s.state == StateDisabled {
		return nil, false
	}
	return &tool{srv: s, name: name, desc: "a tool of the MCP server " + s.cfg.Name, schema: emptySchema, class: tools.Execute}, true
}

// connectionLost reports an error that means the server went away (its
// process exited, the connection closed), not a failed call.
func connectionLost(err error) bool {
	return errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}
