package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// childOf says which subagent a request is from: the text of its first
// user message (the task call's prompt), "" for the parent's.
func childOf(r llmtest.RecordedRequest) string {
	if len(r.Messages) == 0 || !strings.Contains(r.Messages[0].Content, "Your role:") {
		return ""
	}
	for _, m := range r.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

// taskCall is a task tool call.
func taskCall(id, prompt string, extra string) llmtest.Call {
	return llmtest.Call{ID: id, Name: "task", Args: fmt.Sprintf(`{"description":"look into it","prompt":%q%s}`, prompt, extra)}
}

// subagentRows reads the sessions a parent's subagents recorded, as
// "agent parent_call_id stop_reason rounds".
func subagentRows(t *testing.T, home, parent string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(home, "data", "keel", "keel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(context.Background(), `SELECT agent, parent_call_id, stop_reason, rounds FROM sessions WHERE parent_id = ? ORDER BY parent_call_id`, parent)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var agent, call, stop string
		var rounds int
		if err := rows.Scan(&agent, &call, &stop, &rounds); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %s %s %d", agent, call, stop, rounds))
	}
	return out
}

func TestTwoSubagentsRunAtOnceAndRollUp(t *testing.T) {
	home, dir, logs := t.TempDir(), project(t), t.TempDir()
	writeUserConfig(t, home, fmt.Sprintf("[[hooks.SubagentStop]]\ncommand = %q\n", hookLog(logs, "SubagentStop")))
	var mu sync.Mutex
	arrived := map[string]bool{}
	both := make(chan struct{})
	srv := llmtest.Start(t, llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		switch child := childOf(r); {
		case child != "":
			mu.Lock()
			arrived[child] = true
			if len(arrived) == 2 {
				select {
				case <-both:
				default:
					close(both)
				}
			}
			mu.Unlock()
			select { // each child waits for the other: only children running at once pass
			case <-both:
			case <-time.After(30 * time.Second):
				return llmtest.TextRound("the other subagent never started")
			}
			return llmtest.TextRound("found it for: " + child)
		case n == 0:
			return llmtest.ToolRound(taskCall("call_a", "where is main defined?", ""), taskCall("call_b", "what does README say?", ""))
		}
		return llmtest.TextRound("main.go defines main; the README is a title.")
	}})
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "look around", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	lines := streamLines(t, out)
	res := lines[len(lines)-1]
	parent := res["session_id"].(string)
	got := toolResults(lastParentRequest(t, srv).Messages)
	for _, want := range []string{"found it for: where is main defined?", "found it for: what does README say?", "[subagent general: completed after 1 round, 0 tool calls]"} {
		if !strings.Contains(got, want) {
			t.Errorf("the parent's model did not get %q:\n%s", want, got)
		}
	}
	// 2 parent rounds and 1 round per child, at the fake's 100 in / 10 out
	usage := res["usage"].(map[string]any)
	if usage["input_tokens"] != float64(400) || usage["output_tokens"] != float64(40) {
		t.Errorf("usage = %v, want the children's rounds rolled up (400 in, 40 out)", usage)
	}
	if cost := res["total_cost_usd"].(float64); cost < 0.000223 || cost > 0.000225 {
		t.Errorf("total_cost_usd = %v, want 4 rounds at gpt-4.1-mini's price (0.000224)", cost)
	}
	var childMsgs int
	for _, l := range lines {
		if l["type"] == "assistant" && l["parent_tool_use_id"] != nil {
			childMsgs++
		}
	}
	if childMsgs != 2 {
		t.Errorf("%d subagent assistant lines with parent_tool_use_id, want 2", childMsgs)
	}
	stops := hookInputs(t, logs, "SubagentStop")
	if len(stops) != 2 || stops[0]["agent_name"] != "general" || stops[0]["stop_hook_active"] != false {
		t.Errorf("SubagentStop hook inputs = %v, want one per child", stops)
	}
	rows := subagentRows(t, home, parent)
	if fmt.Sprint(rows) != "[general call_a completed 1 general call_b completed 1]" {
		t.Errorf("datalog links = %v", rows)
	}
	for _, child := range childSessions(t, home, parent) {
		if runs := hookRows(t, home, child); fmt.Sprint(runs) != "[SubagentStop 0 ]" {
			t.Errorf("the child %s's hook_runs = %v, want its SubagentStop run", child, runs)
		}
	}
	show, errOut, code := runKeelHome(t, home, nil, dir, "", "log", "show", parent)
	if code != 0 || !strings.Contains(show, "subagents:") || !strings.Contains(show, "├─") || !strings.Contains(show, "└─") ||
		strings.Count(show, "general  completed") != 2 || !strings.Contains(show, "call call_b") {
		t.Errorf("keel log show does not show the tree (exit %d, %s):\n%s", code, errOut, show)
	}
	list, _, _ := runKeelHome(t, home, nil, dir, "", "log", "--json")
	if strings.Count(list, `"id"`) != 1 {
		t.Errorf("keel log lists the subagents beside their parent:\n%s", list)
	}
}

// lastParentRequest is the parent's last request.
func lastParentRequest(t *testing.T, srv *llmtest.Server) llmtest.RecordedRequest {
	t.Helper()
	reqs := srv.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if childOf(reqs[i]) == "" {
			return reqs[i]
		}
	}
	t.Fatal("no parent request")
	return llmtest.RecordedRequest{}
}

func TestASubagentIsDeniedAWriteAndItIsTheParentsDenial(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	srv := llmtest.Start(t, llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		if child := childOf(r); child != "" {
			if len(r.Messages) <= 2 {
				return llmtest.ToolRound(llmtest.Call{ID: "call_w", Name: "write_file", Args: `{"path":"new.txt","content":"hi"}`})
			}
			return llmtest.TextRound("I could not write new.txt: " + toolResults(r.Messages))
		}
		if n == 0 {
			return llmtest.ToolRound(taskCall("call_t", "write new.txt", `,"tools":["read_file","write_file"]`))
		}
		return llmtest.TextRound("the subagent was refused")
	}})
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "delegate", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
		t.Fatal("the subagent wrote without permission")
	}
	var res struct {
		Denials []struct {
			Tool string `json:"tool_name"`
			ID   string `json:"tool_use_id"`
		} `json:"permission_denials"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Denials) != 1 || res.Denials[0].Tool != "write_file" || res.Denials[0].ID != "call_w" {
		t.Errorf("denials = %+v (%v)", res.Denials, err)
	}
	if got := toolResults(lastParentRequest(t, srv).Messages); !strings.Contains(got, "I could not write new.txt: permission denied") {
		t.Errorf("the parent got %q", got)
	}
}

func TestCancellingTheParentCancelsItsSubagents(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		if childOf(r) != "" {
			return llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"sleep 31"}`})
		}
		return llmtest.ToolRound(taskCall("call_t", "wait a while", `,"tools":["run_command"]`))
	}})
	home, dir := t.TempDir(), project(t)
	cmd := exec.Command(keelBinary(t), "-p", "delegate", "--yolo", "--output-format", "json")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k",
		"XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForProcess(t, "sleep 31")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit = %v, want 130; stderr %s", err, errb.String())
	}
	if procs, _ := exec.Command("pgrep", "-f", "sleep 31").Output(); len(bytes.TrimSpace(procs)) > 0 {
		t.Errorf("the subagent's command outlived the cancel: %s", procs)
	}
	var res struct {
		SessionID  string `json:"session_id"`
		StopReason string `json:"stop_reason"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.StopReason != "cancelled" {
		t.Fatalf("result %+v (%v): %s", res, err, out.String())
	}
	if rows := subagentRows(t, home, res.SessionID); len(rows) != 1 || !strings.Contains(rows[0], " cancelled ") {
		t.Errorf("the subagent's session = %v, want it cancelled", rows)
	}
}

func TestANamedAgentFromItsFile(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	if err := os.MkdirAll(filepath.Join(dir, ".keel", "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "---\ndescription: Reviews Go code for bugs.\ntools: read_file, grep\n---\nYou review Go code. Name the file and line of each bug.\n"
	if err := os.WriteFile(filepath.Join(dir, ".keel", "agents", "reviewer.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Script{Handler: func(r llmtest.RecordedRequest, n int) llmtest.Round {
		if childOf(r) != "" {
			return llmtest.TextRound("no bugs in main.go")
		}
		if n == 0 {
			return llmtest.ToolRound(taskCall("call_r", "review main.go", `,"agent":"reviewer"`))
		}
		return llmtest.TextRound("reviewed")
	}})
	if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "review", "--output-format", "json"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	reqs := srv.Requests()
	if !strings.Contains(string(reqs[0].Body), `- reviewer: Reviews Go code for bugs."`) {
		t.Errorf("the task tool's description does not list the agent")
	}
	var child llmtest.RecordedRequest
	for _, r := range reqs {
		if childOf(r) != "" {
			child = r
		}
	}
	if !strings.HasSuffix(child.Messages[0].Content, "Your role:\nYou review Go code. Name the file and line of each bug.") {
		t.Errorf("the child's system prompt ends %q", child.Messages[0].Content[max(0, len(child.Messages[0].Content)-120):])
	}
	if got := strings.Join(child.Tools, ","); got != "read_file,grep,update_plan,reflect,note" && got != "read_file,grep,update_plan,reflect" {
		t.Errorf("the child's tools = %s, want the agent file's (and its own)", got)
	}
}

// childSessions are the ids of parent's subagent sessions.
func childSessions(t *testing.T, home, parent string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(home, "data", "keel", "keel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(context.Background(), `SELECT id FROM sessions WHERE parent_id = ?`, parent)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		t.Fatal("no subagent sessions")
	}
	return ids
}
