package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRemoveMCPServerCutsItsTables(t *testing.T) {
	tests := []struct {
		name, doc, server, want, err string
	}{
		{"between others", "[mcp.servers.a]\ncommand = \"a\"\n\n[mcp.servers.b]\ncommand = \"b\"\n\n[mcp.servers.b.env]\nK = \"v\"\n\n[ui]\ntheme = \"dark\"\n",
			"b", "[mcp.servers.a]\ncommand = \"a\"\n\n[ui]\ntheme = \"dark\"\n", ""},
		{"quoted header", "model = \"m\"\n[ mcp.servers.\"q\" ] # mine\nurl = \"http://x\"\n", "q", "model = \"m\"\n", ""},
		{"the last one leaves an empty file", "[mcp.servers.a]\ncommand = \"a\"\n", "a", "", ""},
		{"a prefix is another server", "[mcp.servers.ab]\ncommand = \"x\"\n[mcp.servers.a]\ncommand = \"a\"\n", "a", "[mcp.servers.ab]\ncommand = \"x\"\n", ""},
		{"inline", "[mcp.servers]\na = { command = \"a\" }\n", "a", "", "not written as an [mcp.servers.a] table"},
		{"missing", "[mcp.servers.a]\ncommand = \"a\"\n", "z", "", `defines no MCP server "z" (it has: a)`},
		{"not TOML", "[mcp.servers.a\n", "a", "", "cannot be edited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			if err := os.WriteFile(path, []byte(tt.doc), 0o640); err != nil {
				t.Fatal(err)
			}
			err := RemoveMCPServer(path, tt.server)
			got, _ := os.ReadFile(path)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || string(got) != tt.doc {
					t.Errorf("err = %v, file %q; want %q and the file unchanged", err, got, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("err %v, file\n%q\nwant\n%q", err, got, tt.want)
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want the file's own 0640", fi.Mode().Perm())
			}
		})
	}
}

func TestAddMCPServerLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "config.toml")
	s := MCPServer{Name: "ev", Command: `C:\tools\srv "x"`, Args: []string{"a b", `"q"`}, Env: map[string]string{"B": "2", "A": "1"}}
	if err := AddMCPServer(path, s); err != nil {
		t.Fatal(err)
	}
	if err := AddMCPServer(path, MCPServer{Name: "web", URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer t"}}); err != nil {
		t.Fatal(err)
	}
	cfg, warnings, err := Load(LoadOptions{ConfigFile: path, Getenv: func(string) string { return "" }})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("load: %v %v", err, warnings)
	}
	got := cfg.MCPServers()
	if len(got) != 2 || got[0].Command != s.Command || strings.Join(got[0].Args, "|") != "a b|\"q\"" || got[0].Env["A"] != "1" ||
		got[1].URL != "https://example.com/mcp" || got[1].Headers["Authorization"] != "Bearer t" {
		t.Errorf("servers read back: %+v", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("a new file is %v, want 0600 (it may hold tokens)", fi.Mode().Perm())
	}
	for _, bad := range []MCPServer{{Name: "a__b", URL: "http://x"}, {Name: "", URL: "http://x"}, {Name: "n"}, {Name: "n", URL: "u", Command: "c"}} {
		if err := AddMCPServer(path, bad); err == nil {
			t.Errorf("AddMCPServer(%+v) took it", bad)
		}
	}
}
