package main

import (
	"fmt"
	"github.com/keel-dev/keel/internal/testdir"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools/sandbox"
)

// toolOutputs are the tool results keel sent back to the model.
func toolOutputs(srv *llmtest.Server) string {
	var b strings.Builder
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			if m.Role == "tool" {
				b.WriteString(m.Content + "\n")
			}
		}
	}
	return b.String()
}

func runCall(command string) llmtest.Round {
	args := fmt.Sprintf(`{"command":%q}`, command)
	return llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: args})
}

// Under --yolo the permission check cannot see what a script in the
// repository does; the sandbox still keeps its writes in the workspace.
func TestSandboxConfinesWhatThePolicyCannotSee(t *testing.T) {
	if err := sandbox.Check(); err != nil {
		t.Skipf("no Landlock here: %v", err)
	}
	outside := outsideDir(t)
	dir := project(t)
	if err := os.WriteFile(filepath.Join(dir, "evil.sh"), []byte("echo pwned > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Rounds(runCall("sh evil.sh inside.txt && sh evil.sh "+outside+"/escaped"), llmtest.TextRound("done")))
	out, errOut, code := runKeel(t, srv, dir, "", "-p", "go", "--yolo", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, errOut, out)
	}
	if _, err := os.Stat(filepath.Join(outside, "escaped")); err == nil {
		t.Fatal("a command wrote outside the workspace under --yolo")
	}
	if _, err := os.Stat(filepath.Join(dir, "inside.txt")); err != nil {
		t.Errorf("the write inside the workspace failed: %v", err)
	}
	if got := toolOutputs(srv); !strings.Contains(got, "Permission denied") {
		t.Errorf("the model was not told the write was refused:\n%s", got)
	}
}

// A detached child does not outlive its command, and a command cannot
// read keel's environment (the API key) through /proc.
func TestCommandLeavesNothingAndSeesNoKey(t *testing.T) {
	mark := fmt.Sprintf("keel-e2e-mark-%d", time.Now().UnixNano())
	srv := llmtest.Start(t, llmtest.Rounds(
		runCall("setsid -f bash -c 'exec -a "+mark+" sleep 300' </dev/null >/dev/null 2>&1; sleep 0.2; echo started"),
		runCall("keel=$(cut -d' ' -f4 /proc/$PPID/stat); cat /proc/$keel/environ | tr '\\0' '\\n'; env"),
		llmtest.TextRound("done")))
	dir := project(t)
	env := []string{"FOO_TOKEN=tok-e2e-abcdef", "KEPT_TOKEN=kept-e2e-abcdef"}
	home := t.TempDir()
	writeUserConfig(t, home, "[permissions]\nenv_passthrough = [\"KEPT_TOKEN\"]\n")
	out, errOut, code := runKeelEnv(t, home, env, srv, dir, "", "-p", "go", "--yolo", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, errOut, out)
	}
	if pids := processesNamed(mark); len(pids) > 0 {
		t.Errorf("a detached child outlived its command: %v", pids)
	}
	got := toolOutputs(srv)
	for _, secret := range []string{"sk-test-e2e-secret-123456", "tok-e2e-abcdef"} {
		if strings.Contains(got, secret) {
			t.Errorf("a command saw the secret %q:\n%s", secret, got)
		}
	}
	if !strings.Contains(got, "KEPT_TOKEN=kept-e2e-abcdef") || !strings.Contains(got, "started") {
		t.Errorf("env_passthrough did not pass KEPT_TOKEN, or the first command failed:\n%s", got)
	}
}

// outsideDir is a directory outside the workspace and outside every
// directory the sandbox leaves writable (temp dirs are).
func outsideDir(t *testing.T) string { return testdir.Outside(t) }

func writeUserConfig(t *testing.T, home, body string) {
	t.Helper()
	p := filepath.Join(home, "config", "keel", "config.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// processesNamed lists processes whose command line starts with name.
func processesNamed(name string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.HasPrefix(string(b), name) {
			out = append(out, e.Name())
		}
	}
	return out
}

// A command keel runs without asking starts from a confined thread of
// keel where the kernel allows it: it is the first process of a pid
// namespace of its own ($$ is 1), and the workspace stays unwritten.
func TestReadOnlyCommandStartsInProcess(t *testing.T) {
	if err := sandbox.InProcess(); err != nil {
		t.Skipf("keel starts such commands through its helper here: %v", err)
	}
	srv := llmtest.Start(t, llmtest.Rounds(runCall(`echo "pid $$"; cat README.md`), llmtest.TextRound("done")))
	dir := project(t)
	out, errOut, code := runKeel(t, srv, dir, "", "-p", "go", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, errOut, out)
	}
	if got := toolOutputs(srv); !strings.Contains(got, "pid 1\n# demo") {
		t.Errorf("the command did not start in a pid namespace of its own:\n%s", got)
	}
}
