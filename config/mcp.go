package config

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// MCP holds the [mcp.servers.NAME] tables.
type MCP struct {
	Servers map[string]MCPServer `toml:"servers"`
}

// MCPServer is one MCP server, an [mcp.servers.NAME] table: a stdio
// command (args, env) or a streamable HTTP url (headers). A table with a
// problem is kept with Problem set, warned about, and never started: a
// broken MCP configuration does not stop keel.
type MCPServer struct {
	Name           string            `toml:"-"`
	Command        string            `toml:"command"`
	Args           []string          `toml:"args"`
	Env            map[string]string `toml:"env"`
	URL            string            `toml:"url"`
	Headers        map[string]string `toml:"headers"`
	StartupTimeout time.Duration     `toml:"startup_timeout"`
	CallTimeout    time.Duration     `toml:"call_timeout"`
	TrustReadOnly  bool              `toml:"trust_read_only"`
	Problem        string            `toml:"-"`
}

// The MCP servers' defaults, applied by MCPServers.
const (
	MCPStartupTimeout = 30 * time.Second
	MCPCallTimeout    = 2 * time.Minute
)

// mcpField is a key of an [mcp.servers.NAME] table; env and headers
// (ptr nil) are tables of strings, the rest take the kinds of other keys.
type mcpField struct {
	key string
	typ kind
	ptr func(*MCPServer) any
}

// mcpFields are the keys of an [mcp.servers.NAME] table.
var mcpFields = []mcpField{
	{"command", kindString, func(s *MCPServer) any { return &s.Command }},
	{"args", kindStrings, func(s *MCPServer) any { return &s.Args }},
	{"env", kindStrings, nil},
	{"url", kindString, func(s *MCPServer) any { return &s.URL }},
	{"headers", kindStrings, nil},
	{"startup_timeout", kindDuration, func(s *MCPServer) any { return &s.StartupTimeout }},
	{"call_timeout", kindDuration, func(s *MCPServer) any { return &s.CallTimeout }},
	{"trust_read_only", kindBool, func(s *MCPServer) any { return &s.TrustReadOnly }},
}

// mcpKeyNames lists the keys of a server table, for suggestions.
func mcpKeyNames() []string {
	names := make([]string, len(mcpFields))
	for i, k := range mcpFields {
		names[i] = k.key
	}
	return names
}

// MCPServers lists the configured MCP servers, sorted by name, each with
// its Name set, its maps copied and its timeouts defaulted.
func (c *Config) MCPServers() []MCPServer {
	names := make([]string, 0, len(c.MCP.Servers))
	for n := range c.MCP.Servers {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]MCPServer, 0, len(names))
	for _, n := range names {
		s := c.MCP.Servers[n]
		s.Name, s.Args = n, slices.Clone(s.Args)
		s.Env, s.Headers = cloneMap(s.Env), cloneMap(s.Headers)
		if s.StartupTimeout == 0 {
			s.StartupTimeout = MCPStartupTimeout
		}
		if s.CallTimeout == 0 {
			s.CallTimeout = MCPCallTimeout
		}
		out = append(out, s)
	}
	return out
}

// mcp walks [mcp]: only a servers table of [mcp.servers.NAME] tables.
// An untrusted project may not define or change a server: a server is a
// command keel runs. Problems are warnings, never errors.
func (d *fileDecoder) mcp(v any) {
	m, ok := v.(map[string]any)
	if !ok {
		d.mcpWarn([]string{"mcp"}, "mcp must be a table holding [mcp.servers.NAME] tables, not %s; no MCP server is started", describe(v))
		return
	}
	for _, k := range d.ordered([]string{"mcp"}, m) {
		parts := []string{"mcp", k}
		if k != "servers" {
			d.unknown(parts)
			continue
		}
		servers, ok := m[k].(map[string]any)
		if !ok {
			d.mcpWarn(parts, "mcp.servers must be a table of [mcp.servers.NAME] tables, not %s; no MCP server is started", describe(m[k]))
			continue
		}
		for _, name := range d.ordered(parts, servers) {
			sp := []string{"mcp", "servers", name}
			if !d.refuse(sp, true) {
				d.mcpServer(sp, servers[name])
			}
		}
	}
}

// mcpServer applies one [mcp.servers.NAME] table over what lower files set.
func (d *fileDecoder) mcpServer(parts []string, v any) {
	name := parts[2]
	if d.cfg.MCP.Servers == nil {
		d.cfg.MCP.Servers = map[string]MCPServer{}
	}
	s := d.cfg.MCP.Servers[name]
	d.cfg.sources[strings.Join(parts, ".")] = d.source(parts)
	defer func() { d.cfg.MCP.Servers[name] = s }()
	m, ok := v.(map[string]any)
	if !ok {
		s.Problem = d.mcpWarn(parts, "%s must be a table, not %s", strings.Join(parts, "."), describe(v))
		return
	}
	for _, k := range d.ordered(parts, m) {
		kp := append(slices.Clip(parts), k)
		if p := d.mcpKey(&s, kp, m[k]); p != "" {
			s.Problem = p
		}
	}
}

// mcpKey sets one key of a server table; a value of the wrong type is a
// warning and the problem that disables the server.
func (d *fileDecoder) mcpKey(s *MCPServer, kp []string, v any) string {
	key := strings.Join(kp, ".")
	i := slices.IndexFunc(mcpFields, func(f mcpField) bool { return f.key == kp[3] })
	if i < 0 {
		d.unknown(kp)
		return ""
	}
	f := mcpFields[i]
	d.cfg.sources[key] = d.source(kp)
	if f.ptr == nil {
		m, problem := stringTable(v)
		if problem != "" {
			return d.mcpWarn(kp, "%s must be a table of strings, %s", key, problem)
		}
		if f.key == "env" {
			s.Env = m
		} else {
			s.Headers = m
		}
		return ""
	}
	val, problem := fromTOML(f.typ, v)
	if problem != "" {
		return d.mcpWarn(kp, "%s must be %s", key, problem)
	}
	assign(f.ptr(s), val)
	return ""
}

// mcpWarn records a problem of an MCP server as a warning at the key and
// returns it; the server is not started.
func (d *fileDecoder) mcpWarn(parts []string, format string, args ...any) string {
	msg := fmt.Sprintf(format, args...)
	src := d.source(parts)
	d.warnings = append(d.warnings, Warning{Path: d.path, Line: src.Line, Col: src.Col,
		Key: strings.Join(parts, "."), Msg: msg + serverOff(parts)})
	return msg
}

// serverOff ends a server's warning: what becomes of it.
func serverOff(parts []string) string {
	if len(parts) < 3 {
		return ""
	}
	return fmt.Sprintf(" (the MCP server %q is not started)", parts[2])
}

// stringTable converts a TOML table whose values are all strings.
func stringTable(v any) (map[string]string, string) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, "not " + describe(v)
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Sprintf("but %s is %s", k, describe(e))
		}
		out[k] = s
	}
	return out, ""
}

// serverName is what an MCP server's name may be: it becomes part of the
// tool names mcp__NAME__TOOL (package mcp applies the same rule).
var serverName = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]|_[A-Za-z0-9-])*$`)

// checkMCP finds what makes each server unusable once every layer is
// applied, and warns (at the server's table) instead of failing: a broken
// MCP server never stops keel.
func checkMCP(c *Config) []Warning {
	var out []Warning
	for _, s := range c.MCPServers() {
		p := mcpProblem(s)
		if p == "" || s.Problem != "" {
			continue // fine, or already warned about
		}
		key := "mcp.servers." + s.Name
		src := c.Source(key)
		out = append(out, Warning{Path: src.Name, Line: src.Line, Col: src.Col, Key: key, Msg: p + serverOff([]string{"mcp", "servers", s.Name})})
		s.Problem = p
		c.MCP.Servers[s.Name] = s
	}
	return out
}

// mcpProblem says what is wrong with a server's settings, or "".
func mcpProblem(s MCPServer) string {
	switch {
	case len(s.Name) > 32 || !serverName.MatchString(s.Name):
		return fmt.Sprintf("the MCP server name %q must be 1 to 32 letters, digits, - or single _", s.Name)
	case s.Command == "" && s.URL == "":
		return fmt.Sprintf("[mcp.servers.%s] needs command (a stdio server) or url (a streamable HTTP server)", s.Name)
	case s.Command != "" && s.URL != "":
		return fmt.Sprintf("[mcp.servers.%s] sets both command and url; keep one", s.Name)
	case s.StartupTimeout < 0 || s.CallTimeout < 0:
		return fmt.Sprintf("[mcp.servers.%s] timeouts must be positive", s.Name)
	}
	if s.URL != "" {
		if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Sprintf("mcp.servers.%s.url must be an http or https URL, not %q", s.Name, short(s.URL))
		}
	}
	return ""
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
