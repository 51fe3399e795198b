package config

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestMCPServersLoad(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.userFile, lines(
		`[mcp.servers.github]`,
		`command = "github-mcp-server"`,
		`args = ["stdio", "--read-only"]`,
		`env = { GITHUB_TOKEN = "${GH_TOKEN}" }`,
		`trust_read_only = true`,
		``,
		`[mcp.servers.docs]`,
		`url = "https://example.com/mcp"`,
		`headers = { Authorization = "Bearer x" }`,
		`startup_timeout = "5s"`,
		`call_timeout = "1m"`,
	))
	c, warns := w.load(t)
	if len(warns) != 0 {
		t.Fatalf("warnings: %v", warns)
	}
	got := c.MCPServers()
	if len(got) != 2 || got[0].Name != "docs" || got[1].Name != "github" {
		t.Fatalf("servers = %+v", got)
	}
	d, g := got[0], got[1]
	if d.URL != "https://example.com/mcp" || d.Headers["Authorization"] != "Bearer x" || d.StartupTimeout != 5*time.Second || d.CallTimeout != time.Minute {
		t.Errorf("docs = %+v", d)
	}
	if g.Command != "github-mcp-server" || strings.Join(g.Args, " ") != "stdio --read-only" || g.Env["GITHUB_TOKEN"] != "${GH_TOKEN}" || !g.TrustReadOnly || g.Problem != "" {
		t.Errorf("github = %+v", g)
	}
	if src := c.Source("mcp.servers.github.command"); src.Line != 2 {
		t.Errorf("source of command = %v", src)
	}
}

// TestBrokenMCPConfigWarnsAndNeverFails: each problem is one line with
// file:line:col, the server is not started, and Load succeeds.
func TestBrokenMCPConfigWarnsAndNeverFails(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"wrong type", lines(`[mcp.servers.x]`, `command = 3`), `:2:1: mcp.servers.x.command must be a string, not an integer (3) (the MCP server "x" is not started)`},
		{"env not strings", lines(`[mcp.servers.x]`, `command = "c"`, `env = { A = 1 }`), `:3:1: mcp.servers.x.env must be a table of strings, but A is an integer (1)`},
		{"neither command nor url", lines(`[mcp.servers.x]`, `args = ["a"]`), `:1:14: [mcp.servers.x] needs command (a stdio server) or url`},
		{"both", lines(`[mcp.servers.x]`, `command = "c"`, `url = "http://h/mcp"`), `sets both command and url`},
		{"bad url", lines(`[mcp.servers.x]`, `url = "ftp://h"`), `mcp.servers.x.url must be an http or https URL`},
		{"bad name", lines(`[mcp.servers."a.b"]`, `command = "c"`), `the MCP server name "a.b" must be`},
		{"double underscore", lines(`[mcp.servers.a__b]`, `command = "c"`), `the MCP server name "a__b" must be`},
		{"server not a table", lines(`[mcp]`, `servers = 3`), `mcp.servers must be a table`},
		{"mcp not a table", lines(`mcp = "x"`), `mcp must be a table`},
		{"bad duration", lines(`[mcp.servers.x]`, `command = "c"`, `call_timeout = "soon"`), `call_timeout must be a duration`},
		{"unknown key", lines(`[mcp.servers.x]`, `command = "c"`, `comand = "d"`), `unknown key "mcp.servers.x.comand" is ignored (did you mean "mcp.servers.x.command"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			writeFile(t, w.userFile, tt.doc)
			c, warns := w.load(t)
			if len(warns) != 1 || !strings.Contains(warns[0].String(), tt.want) || strings.Contains(warns[0].String(), "\n") {
				t.Fatalf("warnings = %v, want one line containing %q", warns, tt.want)
			}
			if !strings.HasPrefix(warns[0].String(), w.userFile+":") {
				t.Errorf("warning %q does not start with the file", warns[0])
			}
			for _, s := range c.MCPServers() {
				if s.Problem == "" && !strings.Contains(tt.want, "unknown key") {
					t.Errorf("server %s has no problem recorded", s.Name)
				}
			}
		})
	}
}

func TestUntrustedProjectCannotDefineOrChangeMCPServers(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.userFile, lines(`[mcp.servers.github]`, `command = "github-mcp-server"`))
	project := lines(`[mcp.servers.github]`, `command = "evil"`, ``, `[mcp.servers.backdoor]`, `command = "sh"`)
	writeFile(t, w.projectFile, project)
	c, warns := w.load(t)
	got := c.MCPServers()
	if len(got) != 1 || got[0].Command != "github-mcp-server" {
		t.Fatalf("servers = %+v, want only the user's, unchanged", got)
	}
	if len(warns) != 2 || !strings.Contains(warns[0].String(), "mcp.servers.github is ignored: this project is not trusted") ||
		!strings.Contains(warns[1].String(), "mcp.servers.backdoor is ignored") {
		t.Errorf("warnings = %v", warns)
	}
	if r := Render(c); !strings.Contains(r, "# [mcp.servers.backdoor] IGNORED "+w.projectFile+":4") {
		t.Errorf("Render does not name the ignored server:\n%s", r)
	}
	w.trust(t)
	c, warns = w.load(t)
	if len(warns) != 0 || len(c.MCPServers()) != 2 || c.MCP.Servers["github"].Command != "evil" {
		t.Errorf("trusted: servers %+v, warnings %v", c.MCPServers(), warns)
	}
}

func TestRenderMasksMCPSecrets(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.userFile, lines(`[mcp.servers.gh]`, `command = "gh-mcp"`, `env = { GITHUB_TOKEN = "ghp_secret" }`,
		`[mcp.servers.web]`, `url = "https://h/mcp"`, `headers = { Authorization = "Bearer s3cret" }`))
	c, _ := w.load(t)
	r := Render(c)
	for _, want := range []string{`[mcp.servers.gh]`, `command = "gh-mcp"`, `env = { GITHUB_TOKEN = "***" }`, `headers = { Authorization = "***" }`} {
		if !strings.Contains(r, want) {
			t.Errorf("Render lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r, "ghp_secret") || strings.Contains(r, "s3cret") {
		t.Errorf("Render shows a secret:\n%s", r)
	}
	if !strings.Contains(strings.Join(TrustedKeys(), " "), "mcp.servers.*") {
		t.Error("TrustedKeys does not name the MCP servers")
	}
}

// TestMCPSchemaCoversStruct keeps mcpFields and MCPServer's tags in step.
func TestMCPSchemaCoversStruct(t *testing.T) {
	st := reflect.TypeFor[MCPServer]()
	var tags []string
	for i := range st.NumField() {
		if tag := st.Field(i).Tag.Get("toml"); tag != "-" {
			tags = append(tags, tag)
		}
	}
	if got, want := strings.Join(tags, " "), strings.Join(mcpKeyNames(), " "); got != want {
		t.Errorf("MCPServer keys %q, schema %q", got, want)
	}
}
