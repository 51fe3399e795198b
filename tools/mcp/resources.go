package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/keel-dev/keel/tools"
)

// The tools that list and read the servers' resources. They join the
// tool list once a server that offers resources has started.
const (
	ListResourcesTool = Prefix + "list_resources"
	ReadResourceTool  = Prefix + "read_resource"
)

type listResourcesParams struct {
	Server string `json:"server,omitempty" description:"Only this MCP server's resources (default: every server's)."`
}

type readResourceParams struct {
	Server string `json:"server" description:"The MCP server that offers the resource, as mcp__list_resources names it."`
	URI    string `json:"uri" description:"The resource's URI, as mcp__list_resources lists it."`
}

const listResourcesDesc = `List the resources the MCP servers offer (files, records, documents they expose): each one's server, URI, name, type and description. Read one with mcp__read_resource.`

const readResourceDesc = `Read one resource of an MCP server by its URI (from mcp__list_resources): its text, or its image.`

// resourceTools are the two tools over m's servers.
func (m *Manager) resourceTools() []tools.Tool {
	return []tools.Tool{
		tools.NewTool(ListResourcesTool, listResourcesDesc, tools.ReadOnly, nil, m.listResources),
		tools.NewTool(ReadResourceTool, readResourceDesc, tools.ReadOnly, nil, m.readResource),
	}
}

// offersResources reports a server that listed resources at its start.
func (m *Manager) offersResources() bool {
	for _, s := range m.servers {
		s.mu.Lock()
		n := s.resources
		s.mu.Unlock()
		if n > 0 {
			return true
		}
	}
	return false
}

func (m *Manager) listResources(ctx context.Context, p listResourcesParams) (tools.Result, error) {
	var b strings.Builder
	found := 0
	for _, s := range m.servers {
		if p.Server != "" && s.cfg.Name != p.Server {
			continue
		}
		n, err := s.writeResources(ctx, &b)
		if err != nil {
			fmt.Fprintf(&b, "%s: cannot list its resources: %v\n", s.cfg.Name, err)
		}
		found += n
	}
	if p.Server != "" && m.server(p.Server) == nil {
		return tools.ErrResult("there is no MCP server %q; the servers are: %s", p.Server, m.serverNames()), nil
	}
	if found == 0 && b.Len() == 0 {
		return tools.Result{Output: "no MCP server offers resources"}, nil
	}
	return tools.Result{Output: tools.CapOutput(strings.TrimRight(b.String(), "\n"), m.opts.MaxOutput)}, nil
}

// writeResources lists a ready server's resources, one per line; a server
// that is not ready or offers none writes nothing.
func (s *server) writeResources(ctx context.Context, b *strings.Builder) (int, error) {
	s.mu.Lock()
	l, offers := s.link, s.resources > 0
	s.mu.Unlock()
	if l == nil || !offers {
		return 0, nil
	}
	cctx, cancel := within(ctx, s.cfg.CallTimeout)
	defer cancel()
	n := 0
	for r, err := range l.sess.Resources(cctx, nil) {
		if err != nil {
			return n, err
		}
		if n++; n > maxListed {
			fmt.Fprintf(b, "%s: more resources not listed (at most %d)\n", s.cfg.Name, maxListed)
			break
		}
		fmt.Fprintf(b, "%s: %s", s.cfg.Name, r.URI)
		writeResourceInfo(b, r)
	}
	return n, nil
}

// writeResourceInfo ends a resource's line: its name, type and
// description, when they say something the URI does not.
func writeResourceInfo(b *strings.Builder, r *sdk.Resource) {
	var info []string
	if r.Name != "" && r.Name != r.URI {
		info = append(info, r.Name)
	}
	if r.MIMEType != "" {
		info = append(info, r.MIMEType)
	}
	if len(info) > 0 {
		fmt.Fprintf(b, " (%s)", strings.Join(info, ", "))
	}
	if d := strings.Join(strings.Fields(r.Description), " "); d != "" {
		fmt.Fprintf(b, " — %s", cut(d, 200))
	}
	b.WriteByte('\n')
}

func (m *Manager) readResource(ctx context.Context, p readResourceParams) (tools.Result, error) {
	s := m.server(p.Server)
	if s == nil {
		return tools.ErrResult("there is no MCP server %q; the servers are: %s", p.Server, m.serverNames()), nil
	}
	if strings.TrimSpace(p.URI) == "" {
		return tools.ErrResult("uri is required: take it from %s", ListResourcesTool), nil
	}
	l, err := s.ready(ctx)
	if err != nil {
		return tools.ErrResult("the MCP server %q is not available: %v", p.Server, err), nil
	}
	cctx, cancel := within(ctx, s.cfg.CallTimeout)
	defer cancel()
	res, err := l.sess.ReadResource(cctx, &sdk.ReadResourceParams{URI: p.URI})
	if err != nil {
		return tools.ErrResult("reading %s from %q failed: %v", p.URI, p.Server, err), nil
	}
	var imgs []tools.Image
	parts := make([]string, 0, len(res.Contents))
	for _, c := range res.Contents {
		parts = append(parts, resourceText(c, &imgs))
	}
	out := strings.Join(parts, "\n")
	if out == "" {
		out = "(the resource is empty)"
	}
	return tools.Result{Output: tools.CapOutput(out, m.opts.MaxOutput), Images: imgs}, nil
}

// server finds a server by name.
func (m *Manager) server(name string) *server {
	for _, s := range m.servers {
		if s.cfg.Name == name {
			return s
		}
	}
	return nil
}

// serverNames lists the servers' names for a message.
func (m *Manager) serverNames() string {
	names := make([]string, len(m.servers))
	for i, s := range m.servers {
		names[i] = s.cfg.Name
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// cut shortens s to n bytes, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
