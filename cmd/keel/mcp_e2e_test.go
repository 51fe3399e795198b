package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

var (
	mcpServerOnce sync.Once
	mcpServerBin  string
	mcpServerErr  error
)

// mcpServerBinary builds mcptest's stdio server next to the keel binary
// (TestMain removes that directory).
func mcpServerBinary(t *testing.T) string {
	t.Helper()
	dir := filepath.Dir(keelBinary(t))
	mcpServerOnce.Do(func() {
		mcpServerBin = filepath.Join(dir, "mcpserver")
		if out, err := goBuild("-o", mcpServerBin, "../../tools/mcp/testdata/mcpserver").CombinedOutput(); err != nil {
			mcpServerErr = &exec.Error{Name: "go build mcpserver", Err: errString(out)}
		}
	})
	if mcpServerErr != nil {
		t.Fatal(mcpServerErr)
	}
	return mcpServerBin
}

type errString string

func (e errString) Error() string { return string(e) }

// mcpHome is a HOME whose user configuration holds doc.
func mcpHome(t *testing.T, doc string) string {
	t.Helper()
	home := t.TempDir()
	path := filepath.Join(home, "config", "keel", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return home
}

// testServerConfig configures mcptest's server as [mcp.servers.test].
func testServerConfig(t *testing.T) string {
	return "[mcp.servers.test]\ncommand = " + strconv.Quote(mcpServerBinary(t)) + "\n"
}

// headlessResult is the part of keel -p's JSON these tests read.
type headlessResult struct {
	StopReason string `json:"stop_reason"`
	Denials    []struct {
		Tool   string `json:"tool_name"`
		Reason string `json:"reason"`
	} `json:"permission_denials"`
}

func TestMCPToolCallHeadless(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "mcp__test__echo", Args: `{"text":"hi"}`}),
		llmtest.ToolRound(llmtest.Call{Name: "mcp__test__env", Args: `{"name":"OPENAI_API_KEY"}`},
			llmtest.Call{Name: "mcp__test__spawn", Args: `{}`}),
		llmtest.TextRound("done"),
	))
	home := mcpHome(t, testServerConfig(t))
	out, errOut, code := runKeelHome(t, home, srv, project(t), "", "-p", "use the MCP tool", "--output-format", "json", "--allow", "mcp__test__*")
	var res headlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.StopReason != "completed" || len(res.Denials) != 0 {
		t.Fatalf("exit %d, result %+v (%v); stderr: %s", code, res, err, errOut)
	}
	reqs := srv.Requests()
	if got := toolResults(reqs[1].Messages); got != "echo: hi" {
		t.Errorf("the MCP tool's result sent to the model = %q", got)
	}
	if !strings.Contains(strings.Join(reqs[1].Tools, " "), "mcp__test__echo") {
		t.Errorf("the request after the server started offers %v", reqs[1].Tools)
	}
	results := toolResults(reqs[2].Messages)
	if !strings.Contains(results, "OPENAI_API_KEY is not set") {
		t.Errorf("the server saw keel's API key: %q", results)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(results[strings.LastIndexByte(results, '\n')+1:]))
	if pid <= 0 {
		t.Fatalf("spawn result %q", results)
	}
	waitGone(t, pid)
}

// toolResults joins the tool messages at the end of a request.
func toolResults(msgs []llmtest.RecordedMessage) string {
	var out []string
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role == "tool"; i-- {
		out = append([]string{msgs[i].Content}, out...)
	}
	return strings.Join(out, "\n")
}

// waitGone waits for a process keel started through an MCP server to be
// gone once keel exited (killed with the server's process group).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for syscall.Kill(pid, 0) == nil {
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err != nil || strings.Contains(string(b), ") Z") {
			return // a zombie waiting for init
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d, started by the MCP server, outlived keel", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestMCPToolDeniedHeadlessWithoutARule(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "mcp__test__echo", Args: `{"text":"hi"}`}),
		llmtest.TextRound("could not"),
	))
	home := mcpHome(t, testServerConfig(t))
	out, errOut, code := runKeelHome(t, home, srv, project(t), "", "-p", "use the MCP tool", "--output-format", "json")
	var res headlessResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 {
		t.Fatalf("exit %d (%v); stderr: %s", code, err, errOut)
	}
	if len(res.Denials) != 1 || res.Denials[0].Tool != "mcp__test__echo" {
		t.Errorf("denials = %+v, want the MCP call denied", res.Denials)
	}
	if got := toolResults(srv.Requests()[1].Messages); !strings.Contains(got, "permission denied") {
		t.Errorf("result sent to the model = %q", got)
	}
}

// TestBadMCPConfigNeverBlocks: a broken table is one warning line with
// its position; an unreachable server is a notice; the task runs.
func TestBadMCPConfigNeverBlocks(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "mcp__far__anything", Args: `{}`}),
		llmtest.TextRound("done anyway"),
	))
	doc := "[mcp.servers.bad]\ncommand = 3\n\n[mcp.servers.far]\nurl = \"http://127.0.0.1:1/mcp\"\n"
	home := mcpHome(t, doc)
	_, errOut, code := runKeelHome(t, home, srv, project(t), "", "-p", "go", "--allow", "mcp__*")
	if code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, errOut)
	}
	cfgPath := filepath.Join(home, "config", "keel", "config.toml")
	for _, want := range []string{
		"keel: warning: " + cfgPath + `:2:1: mcp.servers.bad.command must be a string, not an integer (3) (the MCP server "bad" is not started)`,
		`keel: MCP server "far" could not start:`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if got := toolResults(srv.Requests()[1].Messages); !strings.Contains(got, `the MCP server "far" is not available`) {
		t.Errorf("result sent to the model = %q", got)
	}
}

func TestMCPList(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	home := mcpHome(t, testServerConfig(t)+"\n[mcp.servers.bad]\nargs = [\"x\"]\n\n[mcp.servers.gone]\ncommand = \"no-such-mcp-server-binary\"\n")
	out, errOut, code := runKeelHome(t, home, nil, project(t), "", "mcp", "list")
	if code != 1 {
		t.Fatalf("exit %d with two servers not ready, want 1; stderr: %s", code, errOut)
	}
	for _, want := range []string{
		"bad: disabled (stdio: x) — [mcp.servers.bad] needs command",
		"gone: failed (stdio: no-such-mcp-server-binary) — it exited before answering",
		"test: ready (stdio: " + mcpServerBinary(t) + ")",
		"  tools (11):\n    mcp__test__crash\n    mcp__test__echo\n",
		"    mcp__test__odd_name_with_chars\n",
		"  prompts (1):\n    /test:review\n",
		"  stderr:\n    mcptest: starting",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("keel mcp list lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "no-such-mcp-server-binary\": executable file not found"); n != 1 {
		t.Errorf("the missing binary's error is printed %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(errOut, "keel: 2 of 3 MCP servers are not ready: bad, gone") {
		t.Errorf("stderr = %q", errOut)
	}
}

// A credential in an MCP server's configuration never reaches the
// datalog, even when the server echoes it back.
func TestMCPConfigSecretsAreRedactedFromTheDatalog(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	const token = "mcp-literal-token-98765"
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "mcp__test__env", Args: `{"name":"SERVICE_TOKEN"}`}),
		llmtest.TextRound("done"),
	))
	home := mcpHome(t, testServerConfig(t)+"env = { SERVICE_TOKEN = \""+token+"\" }\n")
	out, errOut, code := runKeelHome(t, home, srv, project(t), "", "-p", "read the token", "--output-format", "json", "--allow", "mcp__test__*")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if got := toolResults(srv.Requests()[1].Messages); got != "SERVICE_TOKEN="+token {
		t.Fatalf("the server's result = %q; the test needs the token echoed", got)
	}
	var logged []byte
	for _, suffix := range []string{"", "-wal"} {
		b, _ := os.ReadFile(filepath.Join(home, "data", "keel", "keel.db"+suffix))
		logged = append(logged, b...)
	}
	if len(logged) == 0 {
		t.Fatal("no datalog was written")
	}
	if bytes.Contains(logged, []byte(token)) {
		t.Error("the MCP server's token is in the datalog")
	}
	if !bytes.Contains(logged, []byte("MCP_SECRET_1")) {
		t.Error("the datalog holds no redaction mark for the token")
	}
}
