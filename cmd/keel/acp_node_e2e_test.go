package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// acpSDK is the official TypeScript client the ACP e2e test drives keel with.
const acpSDK = "@agentclientprotocol/sdk@2.4.0"

// acpSDKDir installs the client from npm once into the user's cache and
// returns the directory holding its node_modules.
func acpSDKDir(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("no cache directory for the npm install: %v", err)
	}
	dir := filepath.Join(cache, "keel-test", "acp-sdk-2.4.0")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "package.json")); err == nil {
		return dir
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "acp-sdk-")
	if err != nil && os.MkdirAll(filepath.Dir(dir), 0o755) == nil {
		tmp, err = os.MkdirTemp(filepath.Dir(dir), "acp-sdk-")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	_ = os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"name":"keel-acp-e2e","private":true,"type":"module"}`), 0o644)
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error", acpSDK)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s: %v\n%s", acpSDK, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
		if _, serr := os.Stat(dir); serr != nil { // another test run won the race otherwise
			t.Fatal(err)
		}
	}
	return dir
}

// acpSeen is what the TypeScript client reports.
type acpSeen struct {
	Init struct {
		ProtocolVersion   int `json:"protocolVersion"`
		AgentCapabilities struct {
			LoadSession bool `json:"loadSession"`
		} `json:"agentCapabilities"`
	} `json:"init"`
	SessionID   string            `json:"sessionId"`
	FirstStop   string            `json:"firstStop"`
	SecondStop  string            `json:"secondStop"`
	Error       string            `json:"error"`
	Reads       []string          `json:"reads"`
	Writes      map[string]string `json:"writes"`
	Permissions []struct {
		ToolCall struct {
			ToolCallID string `json:"toolCallId"`
		} `json:"toolCall"`
		Options []struct {
			Kind string `json:"kind"`
		} `json:"options"`
	} `json:"permissions"`
	Updates []struct {
		SessionUpdate string `json:"sessionUpdate"`
		ToolCallID    string `json:"toolCallId"`
		Kind          string `json:"kind"`
		Status        string `json:"status"`
		Entries       []struct {
			Content string `json:"content"`
			Status  string `json:"status"`
		} `json:"entries"`
		Content json.RawMessage `json:"content"`
	} `json:"updates"`
}

func TestACPWithTheTypeScriptClient(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: this test drives keel acp with the official TypeScript client (the protocol's Go-level tests in cmd/keel/acp need neither)", tool)
		}
	}
	sdk := acpSDKDir(t)
	work := t.TempDir()
	script, err := os.ReadFile(filepath.Join("testdata", "acp", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "client.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(sdk, "node_modules"), filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	plan := `{"goal":"fix the greeting","steps":[{"title":"read main.go","status":"active"},{"title":"edit main.go","status":"pending"}]}`
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{ID: "c1", Name: "update_plan", Args: plan}),
		llmtest.ToolRound(llmtest.Call{ID: "c2", Name: "read_file", Args: `{"path":"main.go"}`}),
		llmtest.ToolRound(llmtest.Call{ID: "c3", Name: "edit_file", Args: `{"path":"main.go","old_string":"hello, unsaved","new_string":"goodbye"}`}),
		llmtest.ToolRound(llmtest.Call{ID: "c4", Name: "update_plan", Args: strings.NewReplacer("active", "completed", "pending", "completed").Replace(plan)}),
		llmtest.TextRound("greeting fixed"),
		llmtest.Round{Text: "thinking about it for a long while", TextChunk: 4, Hang: true, HangAfter: 2},
	))
	home, dir := t.TempDir(), project(t)
	dir, _ = filepath.EvalSymlinks(dir)
	cfgDir := filepath.Join(home, "config", "keel")
	_ = os.MkdirAll(cfgDir, 0o755)
	// The fake model runs no check after its edit, which discipline would remind it of.
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte("[discipline]\nverify = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mainGo := filepath.Join(dir, "main.go")
	buffers, _ := json.Marshal(map[string]string{mainGo: "package main // hello, unsaved\n"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "client.mjs")
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"XDG_DATA_HOME=" + filepath.Join(home, "data"), "OPENAI_API_KEY=sk-test-e2e-secret-123456", "OPENAI_BASE_URL=" + srv.URL(),
		"KEEL_BIN=" + keelBinary(t), "PROJECT=" + dir, "BUFFERS=" + string(buffers)}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node client.mjs: %v\nstderr: %s", err, stderr.String())
	}
	var seen acpSeen
	if err := json.Unmarshal(stdout.Bytes(), &seen); err != nil {
		t.Fatalf("the client's report is not JSON: %v\n%s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	checkACPSeen(t, seen, mainGo)
	if disk, _ := os.ReadFile(mainGo); !strings.Contains(string(disk), "package main") || strings.Contains(string(disk), "goodbye") {
		t.Errorf("keel wrote the disk behind the editor: %q", disk)
	}
}

func checkACPSeen(t *testing.T, seen acpSeen, mainGo string) {
	t.Helper()
	if seen.Error != "" {
		t.Fatalf("the client failed: %s", seen.Error)
	}
	if seen.Init.ProtocolVersion != 1 || !seen.Init.AgentCapabilities.LoadSession || seen.SessionID == "" {
		t.Errorf("initialize/new: %+v, session %q", seen.Init, seen.SessionID)
	}
	if seen.FirstStop != "end_turn" || seen.SecondStop != "cancelled" {
		t.Errorf("stop reasons %q then %q, want end_turn then cancelled", seen.FirstStop, seen.SecondStop)
	}
	if len(seen.Permissions) != 1 || seen.Permissions[0].ToolCall.ToolCallID != "c3" {
		t.Errorf("permission requests: %+v", seen.Permissions)
	}
	if got := seen.Writes[mainGo]; got != "package main // goodbye\n" {
		t.Errorf("the edit reached the editor as %q (writes %v)", got, seen.Writes)
	}
	if len(seen.Reads) == 0 || seen.Reads[0] != mainGo {
		t.Errorf("reads through the editor: %v", seen.Reads)
	}
	var plan, editCall, diff, answer bool
	for _, u := range seen.Updates {
		switch {
		case u.SessionUpdate == "plan" && len(u.Entries) == 2 && u.Entries[0].Status == "in_progress":
			plan = true
		case u.SessionUpdate == "tool_call" && u.ToolCallID == "c3" && u.Kind == "edit":
			editCall = true
		case u.SessionUpdate == "tool_call_update" && u.ToolCallID == "c3" && strings.Contains(string(u.Content), `"type":"diff"`) &&
			strings.Contains(string(u.Content), "hello, unsaved") && strings.Contains(string(u.Content), "goodbye"):
			diff = true
		case u.SessionUpdate == "agent_message_chunk":
			answer = true
		}
	}
	if !plan || !editCall || !diff || !answer {
		t.Errorf("updates: plan %v, edit tool_call %v, diff %v, message chunks %v", plan, editCall, diff, answer)
	}
}
