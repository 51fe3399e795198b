package main

// Helpers for the discipline suites run through the real binary
// (discipline_bin_e2e_test.go, jobs_e2e_test.go): keel -p with
// stream-json output against the fake server, in a temporary project,
// with the shipped configuration.

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// binCase is one scripted session run through the binary.
type binCase struct {
	name   string
	files  map[string]string
	rounds []llmtest.Round                                                    // served in order, or
	handle func(dir string, n int, req llmtest.RecordedRequest) llmtest.Round // a script that acts between rounds
	args   []string                                                           // more flags
	bin    map[string]string                                                  // programs put first on PATH (name: script)
	fired  []string                                                           // every intervention, "kind@call", in order
	stop   string
	check  func(t *testing.T, r binRun)
}

// binRun is what one session printed and stored.
type binRun struct {
	dir, home string
	lines     []map[string]any // the stream-json lines
	result    map[string]any
	code      int
	stderr    string
	srv       *llmtest.Server
}

// runBin runs the case's session: keel -p go --output-format stream-json
// --yolo in a fresh project with the case's files.
func runBin(t *testing.T, c binCase) binRun {
	t.Helper()
	dir := t.TempDir()
	for p, content := range c.files {
		writeSuiteFile(t, dir, p, content)
	}
	script := llmtest.Rounds(c.rounds...)
	if c.handle != nil {
		script = llmtest.Script{Handler: func(req llmtest.RecordedRequest, n int) llmtest.Round { return c.handle(dir, n, req) }}
	}
	srv := llmtest.Start(t, script)
	home := t.TempDir()
	args := append([]string{"-p", "go", "--output-format", "stream-json", "--yolo"}, c.args...)
	out, errOut, code := runKeelEnv(t, home, withBin(t, binEnv(t), c.bin), srv, dir, "", args...)
	r := binRun{dir: dir, home: home, code: code, stderr: errOut, srv: srv}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("stdout line is not JSON: %v\n%s", err, sc.Text())
		}
		r.lines = append(r.lines, line)
		if line["type"] == "result" {
			r.result = line
		}
	}
	if r.result == nil {
		t.Fatalf("no result line (exit %d); stderr:\n%s", code, errOut)
	}
	return r
}

// binEnv puts a python that works whatever HOME is (pyenv's shims read
// HOME) first on PATH, when the machine has python3.
func binEnv(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return nil
	}
	bin := t.TempDir()
	exe := strings.TrimSpace(string(out))
	for _, name := range []string{"python", "python3"} {
		if err := os.Symlink(exe, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	return []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
}

// withBin puts a directory of the given executable scripts first on the
// PATH of env (a PATH entry there, or the process's own).
func withBin(t *testing.T, env []string, progs map[string]string) []string {
	t.Helper()
	if len(progs) == 0 {
		return env
	}
	bin := t.TempDir()
	for name, body := range progs {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := "PATH=" + os.Getenv("PATH")
	if len(env) > 0 && strings.HasPrefix(env[0], "PATH=") {
		path, env = env[0], env[1:]
	}
	return append([]string{"PATH=" + bin + string(os.PathListSeparator) + strings.TrimPrefix(path, "PATH=")}, env...)
}

// fired lists the interventions as "kind@call", in order.
func (r binRun) fired() []string {
	out := []string{}
	for _, in := range r.of("") {
		out = append(out, fmt.Sprintf("%s@%v", in["kind"], in["at_tool_call"]))
	}
	return out
}

// of returns the intervention lines of one kind ("" for all).
func (r binRun) of(kind string) []map[string]any {
	var out []map[string]any
	for _, l := range r.lines {
		if l["type"] == "intervention" && (kind == "" || l["kind"] == kind) {
			out = append(out, l)
		}
	}
	return out
}

// toolResults returns the results of one tool's calls, in order, each as
// its tool_finished line (name, exit_code, is_error) with "output" added
// from the tool_result block the model received, which the line before
// it carries (ids may repeat across rounds).
func (r binRun) toolResults(tool string) []map[string]any {
	var out []map[string]any
	for i, l := range r.lines {
		if l["type"] != "tool_finished" || l["name"] != tool {
			continue
		}
		if i > 0 {
			msg, _ := r.lines[i-1]["message"].(map[string]any)
			blocks, _ := msg["content"].([]any)
			if len(blocks) == 1 {
				if b, ok := blocks[0].(map[string]any); ok && b["type"] == "tool_result" {
					l["output"] = b["content"]
				}
			}
		}
		out = append(out, l)
	}
	return out
}

// db opens the session's datalog read-only.
func (r binRun) db(t *testing.T) *sql.DB {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+filepath.Join(r.home, "data", "keel", "keel.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// runBinCases runs each case and checks what fired and how it stopped.
func runBinCases(t *testing.T, cases []binCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := runBin(t, c)
			if got := r.fired(); strings.Join(got, " ") != strings.Join(c.fired, " ") {
				t.Errorf("fired %v, want %v", got, c.fired)
			}
			if got := r.result["stop_reason"]; got != c.stop {
				t.Errorf("stop %v (%v), want %s", got, r.result["message"], c.stop)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}
}

// calls turns scripted calls into rounds of one call each and ends with
// an answer.
func calls(answer string, cs ...llmtest.Call) []llmtest.Round {
	return script(answer, one(cs...))
}

// runCmd is a run_command call, with its working directory when dir is set.
func runCmd(command, dir string) llmtest.Call {
	if dir == "" {
		return tc("run_command", "command", command)
	}
	return tc("run_command", "command", command, "workdir", dir)
}
