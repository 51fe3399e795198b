package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keel mcp add and remove round-trip the user configuration: what add
// writes starts (keel mcp list), remove gives back the file as it was,
// comments and other keys kept.
func TestMCPAddRemoveRoundTrip(t *testing.T) {
	t.Parallel()
	orig := "# my settings\nmodel = \"fake-model\"\n\n[ui]\ntheme = \"dark\" # dark terminal\n"
	home := mcpHome(t, orig)
	path := filepath.Join(home, "config", "keel", "config.toml")
	dir := project(t)
	bin := mcpServerBinary(t)

	out, errOut, code := runKeelHome(t, home, nil, dir, "", "mcp", "add", "srv", "-e", "GREETING=hi", "--", bin, "--flag", "two words")
	if code != 0 || !strings.Contains(out, "added the MCP server srv to "+path) {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	_, errOut, code = runKeelHome(t, home, nil, dir, "", "mcp", "add", "web", "--url", "http://127.0.0.1:1/mcp", "-H", "X-Team: keel")
	if code != 0 {
		t.Fatalf("add --url: exit %d: %s", code, errOut)
	}
	doc := readFile(t, path)
	for _, want := range []string{orig, "[mcp.servers.srv]\ncommand = \"" + bin + "\"\nargs = [\"--flag\", \"two words\"]\nenv = { \"GREETING\" = \"hi\" }\n",
		"[mcp.servers.web]\nurl = \"http://127.0.0.1:1/mcp\"\nheaders = { \"X-Team\" = \"keel\" }\n"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the configuration lacks %q:\n%s", want, doc)
		}
	}
	out, _, _ = runKeelHome(t, home, nil, dir, "", "mcp", "list")
	if !strings.Contains(out, "srv: ready (stdio: "+bin) || !strings.Contains(out, "web: failed") {
		t.Errorf("keel mcp list after add:\n%s", out)
	}

	// refusals change nothing
	for _, args := range [][]string{
		{"mcp", "add", "srv", "--", bin},            // already there
		{"mcp", "add", "x", bin},                    // command without --
		{"mcp", "add", "y"},                         // neither command nor URL
		{"mcp", "add", "a__b", "--url", "http://x"}, // not a name
		{"mcp", "remove", "nope"},
	} {
		if _, errOut, code := runKeelHome(t, home, nil, dir, "", args...); code != 2 || !strings.HasPrefix(errOut, "keel: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one sentence", args, code, errOut)
		}
	}
	if got := readFile(t, path); got != doc {
		t.Errorf("a refused edit changed the file:\n%s", got)
	}

	for _, name := range []string{"srv", "web"} {
		if out, errOut, code := runKeelHome(t, home, nil, dir, "", "mcp", "remove", name); code != 0 || !strings.Contains(out, "removed the MCP server "+name) {
			t.Fatalf("remove %s: exit %d\n%s%s", name, code, out, errOut)
		}
	}
	if got := readFile(t, path); got != orig {
		t.Errorf("after add and remove the file is\n%q\nwant\n%q", got, orig)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
