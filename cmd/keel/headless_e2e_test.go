package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

func TestSIGINTCancelsWithExit130(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"sleep 30"}`}),
		llmtest.TextRound("never"),
	))
	home, dir := t.TempDir(), project(t)
	cmd := exec.Command(keelBinary(t), "-p", "sleep", "--yolo", "--output-format", "json")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=k"}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitRequests(t, srv, 1)
	waitForProcess(t, "sleep 30")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit = %v, want 130; stderr %s", err, errb.String())
	}
	var res struct {
		StopReason string `json:"stop_reason"`
		ToolCalls  int    `json:"tool_calls"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.StopReason != "cancelled" || res.ToolCalls != 1 {
		t.Errorf("result %+v (%v): %s", res, err, out.String())
	}
}

// waitForProcess waits until a process whose command line contains text runs.
func waitForProcess(t *testing.T, text string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); { // a hang guard
		out, _ := exec.Command("pgrep", "-f", text).Output()
		if len(bytes.TrimSpace(out)) > 0 {
			return
		}
		waitRequestsSleep()
	}
	t.Fatalf("no process %q started", text)
}

func TestStreamJSONIsOneEventPerLineEndingWithTheResult(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "list_dir", Args: `{"path":"."}`}),
		llmtest.TextRound("two files"),
	))
	out, errOut, code := runKeel(t, srv, project(t), "", "-p", "list", "--output-format", "stream-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	types := map[string]int{}
	for _, l := range lines {
		var ev map[string]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("line is not JSON: %q", l)
		}
		types[ev["type"].(string)]++
	}
	var last map[string]any
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	if last["type"] != "result" || last["stop_reason"] != "completed" || last["turns"] != float64(2) {
		t.Errorf("last line = %v", last)
	}
	if first := lines[0]; !strings.HasPrefix(first, `{"type":"system","subtype":"init",`) {
		t.Errorf("first line = %s, want the system init line", first)
	}
	for _, want := range []string{"state", "assistant", "user", "tool_finished", "usage", "round"} {
		if types[want] == 0 {
			t.Errorf("no %q events in %v", want, types)
		}
	}
}

func TestHeadlessPermissions(t *testing.T) {
	edit := llmtest.Call{Name: "edit_file", Args: `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { println(2) }"}`}
	read := llmtest.Call{Name: "read_file", Args: `{"path":"main.go"}`}
	cases := []struct {
		name    string
		args    []string
		edited  bool
		denials int
	}{
		{"denied without a rule", nil, false, 1},
		{"allowed by --allow", []string{"--allow", "edit_file"}, true, 0},
		{"allowed by --yolo", []string{"--yolo"}, true, 0},
		{"a command rule does not allow edits", []string{"--allow", "run_command:go test *"}, false, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(read), llmtest.ToolRound(edit), llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"go vet main.go"}`}), llmtest.TextRound("ok")))
			dir := project(t)
			args := append([]string{"-p", "edit", "--output-format", "json", "--allow", "run_command:go vet *"}, c.args...)
			out, errOut, code := runKeel(t, srv, dir, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s %s", code, errOut, out)
			}
			var res struct {
				Denials []struct{ Tool, Reason string } `json:"permission_denials"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(filepath.Join(dir, "main.go"))
			if edited := strings.Contains(string(data), "println(2)"); edited != c.edited || len(res.Denials) != c.denials {
				t.Errorf("edited=%v denials=%+v", edited, res.Denials)
			}
			if c.denials > 0 && !strings.Contains(res.Denials[0].Reason, "headless") {
				t.Errorf("denial reason %q does not say why", res.Denials[0].Reason)
			}
		})
	}
}

func TestDemoRunsHeadless(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the demo's story runs go test")
	}
	out, errOut, code := runKeel(t, nil, t.TempDir(), "", "--demo", "-p", "show me", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, errOut, out)
	}
	var res struct {
		StopReason    string `json:"stop_reason"`
		Interventions []struct {
			Kind  string `json:"kind"`
			Reply string `json:"reply"`
		} `json:"interventions"`
		Plan struct {
			Status string `json:"status"`
			Steps  []struct {
				Status string `json:"status"`
			} `json:"steps"`
		} `json:"plan"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.StopReason != "completed" || res.Plan.Status != "completed" || len(res.Plan.Steps) != 4 {
		t.Errorf("demo result: %+v", res)
	}
	if len(res.Interventions) == 0 || res.Interventions[0].Kind != "reflection" || res.Interventions[0].Reply == "" {
		t.Errorf("the demo should hit an answered checkpoint: %+v", res.Interventions)
	}
}
