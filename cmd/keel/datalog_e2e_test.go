package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/llmtest"
)

// scriptedRun makes a datalog with one headless session of three rounds.
func scriptedRun(t *testing.T) (home, dir string, srv *llmtest.Server, id string) {
	t.Helper()
	home, dir = t.TempDir(), project(t)
	srv = llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{ID: "r1", Name: "read_file", Args: `{"path":"main.go"}`}),
		llmtest.ToolRound(llmtest.Call{ID: "e1", Name: "edit_file", Args: `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { println(1) }"}`}),
		llmtest.ToolRound(llmtest.Call{ID: "v1", Name: "run_command", Args: `{"command":"go vet main.go"}`}),
		llmtest.TextRound("edited main.go"),
	))
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "make main print 1", "--yolo", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, errOut, out)
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.SessionID == "" {
		t.Fatalf("no session id: %v %s", err, out)
	}
	return home, dir, srv, res.SessionID
}

func TestLogCommandsReadAScriptedRun(t *testing.T) {
	home, dir, _, id := scriptedRun(t)
	run := func(args ...string) string {
		out, errOut, code := runKeelHome(t, home, nil, dir, "", args...)
		if code != 0 {
			t.Fatalf("keel %v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(run("log", "--json")), &list); err != nil || len(list) != 1 {
		t.Fatalf("log --json: %v %v", err, list)
	}
	if text := run("log"); !strings.Contains(text, "make main print 1") {
		t.Errorf("log lacks the first prompt:\n%s", text)
	}
	var detail struct {
		Rounds []struct {
			ToolCalls []struct {
				Name string `json:"name"`
			} `json:"tool_calls"`
		} `json:"rounds"`
	}
	if err := json.Unmarshal([]byte(run("log", "show", id[:12], "--json")), &detail); err != nil || len(detail.Rounds) != 4 {
		t.Fatalf("log show --json: %v, %d rounds", err, len(detail.Rounds))
	}
	if got := detail.Rounds[1].ToolCalls[0].Name; got != "edit_file" {
		t.Errorf("round 2 tool = %s", got)
	}
	if show := run("log", "show", id[:12]); !strings.Contains(show, "edit_file") {
		t.Errorf("log show lacks the edit:\n%s", show)
	}
	var stats map[string]any
	if err := json.Unmarshal([]byte(run("log", "stats", id[:12], "--json")), &stats); err != nil {
		t.Fatalf("stats --json: %v", err)
	}
	if md := run("log", "export", id[:12], "--format", "markdown"); !strings.Contains(md, "make main print 1") {
		t.Errorf("markdown export lacks the prompt:\n%s", md)
	}
	for _, line := range strings.Split(strings.TrimSpace(run("log", "export", id[:12], "--format", "jsonl")), "\n") {
		if !json.Valid([]byte(line)) {
			t.Errorf("jsonl line is not JSON: %s", line)
		}
	}
}

func TestSecretsNeverReachTheDatalog(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"echo token=$OPENAI_API_KEY; echo sk-test-e2e-secret-123456"}`}),
		llmtest.TextRound("printed"),
	))
	if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "print the key", "--yolo"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if sent := srv.Requests()[1].Body; !bytes.Contains(sent, []byte("token=\\n")) || bytes.Contains(sent, []byte("token=sk-test")) {
		t.Errorf("run_command inherited the API key: %s", sent)
	}
	for _, f := range dbFiles(t, home) {
		if bytes.Contains(f, []byte("sk-test-e2e-secret-123456")) {
			t.Fatal("the API key reached the datalog")
		}
	}
}

func TestResumeRebuildsTheSameRequest(t *testing.T) {
	home, dir, first, _ := scriptedRun(t)
	second := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("still here")))
	if _, errOut, code := runKeelHome(t, home, second, dir, "", "-c", "-p", "and now?"); code != 0 {
		t.Fatalf("resume exit %d: %s", code, errOut)
	}
	before := first.Requests()[3].Messages
	after := second.Requests()[0].Messages
	if len(after) != len(before)+2 {
		t.Fatalf("resumed request has %d messages, want %d", len(after), len(before)+2)
	}
	for i := range before {
		if !bytes.Equal(before[i].Raw, after[i].Raw) {
			t.Errorf("message %d differs:\n before %s\n after  %s", i, before[i].Raw, after[i].Raw)
		}
	}
	if after[len(after)-1].Content != "and now?" {
		t.Errorf("last message = %+v", after[len(after)-1])
	}
}

func TestUndoRestoresTheLastTaskAndRefusesAfterOutsideChanges(t *testing.T) {
	home, dir, _, _ := scriptedRun(t)
	main := filepath.Join(dir, "main.go")
	if data, _ := os.ReadFile(main); !strings.Contains(string(data), "println(1)") {
		t.Fatalf("the scripted edit did not land: %s", data)
	}
	if err := os.WriteFile(main, []byte("package main\n\nfunc main() { println(1) } // touched\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runKeelHome(t, home, nil, dir, "", "undo")
	if code == 0 || !strings.Contains(errOut, "main.go") {
		t.Fatalf("undo after an outside change: exit %d, %q", code, errOut)
	}
	if err := os.WriteFile(main, []byte("package main\n\nfunc main() { println(1) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runKeelHome(t, home, nil, dir, "", "undo")
	if code != 0 || !strings.Contains(out, "restored main.go as it was before the last task") {
		t.Fatalf("undo: exit %d, %q %q", code, out, errOut)
	}
	if data, _ := os.ReadFile(main); string(data) != "package main\n\nfunc main() {}\n" {
		t.Errorf("main.go after undo = %q", data)
	}
	if out, _, _ := runKeelHome(t, home, nil, dir, "", "undo"); !strings.Contains(out, "nothing to undo") {
		t.Errorf("second undo = %q", out)
	}
}

func TestCaptureBodiesStoresRawRequestAndResponse(t *testing.T) {
	home, dir := t.TempDir(), project(t)
	if err := os.MkdirAll(filepath.Join(dir, ".keel"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".keel", "config.toml"), []byte("[datalog]\ncapture_bodies = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("captured answer")))
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "hello there", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	_ = json.Unmarshal([]byte(out), &res)
	db, err := datalog.Open(filepath.Join(home, "data", "keel", "keel.db"), datalog.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	req, resp, err := db.LoadBodies(context.Background(), res.SessionID, 1)
	if err != nil || !bytes.Contains(req, []byte("hello there")) || !bytes.Contains(resp, []byte("captured")) {
		t.Errorf("bodies: %v\nrequest %s\nresponse %s", err, req, resp)
	}
}
