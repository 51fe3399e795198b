package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools/mcp/mcptest"
)

// An HTTP server asking for OAuth: keel -p and keel mcp list name keel
// mcp login; the login signs in through a "browser" ($BROWSER, curl
// following the authorization URL to keel's loopback listener), stores
// the tokens 0600 in the data dir and nowhere else; the tool then works
// headless; logout forgets the sign-in.
func TestMCPOAuthLoginE2E(t *testing.T) {
	t.Parallel()
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl, the test's browser, is not installed")
	}
	a := mcptest.NewOAuthServer()
	t.Cleanup(a.Close)
	home := mcpHome(t, "[mcp.servers.web]\nurl = \""+a.URL+"/mcp\"\n")
	browser := filepath.Join(t.TempDir(), "browser")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\nexec "+curl+" -fsSL -o /dev/null \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"BROWSER=" + browser}
	dir := project(t)

	out, errOut, code := runKeelEnv(t, home, env, nil, dir, "", "mcp", "list")
	if code == 0 || !strings.Contains(out, "the server asks for OAuth sign-in: run `keel mcp login web` first") {
		t.Fatalf("list before login: exit %d\n%s%s", code, out, errOut)
	}
	pre := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("ok")))
	if _, errOut, code := runKeelEnv(t, home, env, pre, dir, "", "-p", "hi"); code != 0 ||
		strings.Count(errOut, "the server asks for OAuth sign-in: run `keel mcp login web` first") != 1 {
		t.Fatalf("-p before login: exit %d; stderr %q", code, errOut)
	}
	out, errOut, code = runKeelEnv(t, home, env, nil, dir, "", "mcp", "login", "web")
	if code != 0 || !strings.Contains(out, "signed in to web (") || !strings.Contains(errOut, a.URL+"/authorize?") {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	file := filepath.Join(home, "data", "keel", "mcp-oauth.json")
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file %s: %v %v", file, err, st)
	}

	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "mcp__web__echo", Args: `{"text":"signed"}`}),
		llmtest.TextRound("done"),
	))
	out, errOut, code = runKeelEnv(t, home, env, srv, dir, "", "-p", "use it", "--output-format", "json", "--allow", "mcp__web__*")
	var res headlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.StopReason != "completed" {
		t.Fatalf("-p after login: exit %d, %+v (%v); stderr: %s", code, res, err, errOut)
	}
	if got := toolResults(srv.Requests()[1].Messages); got != "echo: signed" {
		t.Errorf("the tool's result after login = %q", got)
	}
	assertTokensOnlyIn(t, filepath.Join(home, "data"), file, out+errOut)

	if out, _, code = runKeelEnv(t, home, env, nil, dir, "", "mcp", "logout", "web"); code != 0 || out != "signed out of web\n" {
		t.Errorf("logout: exit %d, %q", code, out)
	}
	if out, _, code = runKeelEnv(t, home, env, nil, dir, "", "mcp", "list"); code == 0 || !strings.Contains(out, "keel mcp login web") {
		t.Errorf("list after logout: exit %d\n%s", code, out)
	}
}

// assertTokensOnlyIn checks that the stored tokens appear in no other
// file under dir (the datalog) nor in keel's output.
func assertTokensOnlyIn(t *testing.T, dir, file, output string) {
	t.Helper()
	var stored map[string]struct {
		Token struct {
			Access  string `json:"access_token"`
			Refresh string `json:"refresh_token"`
		} `json:"token"`
	}
	if err := json.Unmarshal([]byte(readFile(t, file)), &stored); err != nil || len(stored) != 1 {
		t.Fatalf("token file: %v, %d entries", err, len(stored))
	}
	for _, e := range stored {
		for _, secret := range []string{e.Token.Access, e.Token.Refresh} {
			if secret == "" || strings.Contains(output, secret) {
				t.Errorf("token %q empty or in keel's output", secret)
			}
			filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
				if err == nil && !info.IsDir() && p != file && strings.Contains(readFile(t, p), secret) {
					t.Errorf("a token is in %s", p)
				}
				return nil
			})
		}
	}
}
