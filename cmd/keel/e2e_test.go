package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/tools/sandbox"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// keelBinary builds the real binary once per test run. The path it
// returns is a two-line script that runs the binary with
// $KEEL_INTERNAL_ERRORS set (exec: the process is keel's), so every run
// of every e2e suite reports its internal errors (state transitions the
// table lacks) to one file, which TestMain requires to be empty.
// KEEL_E2E_BINARY names a binary to test instead (an older build, to see
// a new test fail without its change); its internal errors are not
// collected.
func keelBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("KEEL_E2E_BINARY"); bin != "" {
		return bin
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "keel-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "keel")
		real := filepath.Join(dir, "keel-real")
		out, err := goBuild("-o", real, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
			return
		}
		script := fmt.Sprintf("#!/bin/sh\n%s=%s exec %s \"$@\"\n", internalErrorsEnv, internalErrorsFile(dir), real)
		buildErr = os.WriteFile(builtBin, []byte(script), 0o755)
	})
	if buildErr != nil {
		t.Fatalf("build keel: %v", buildErr)
	}
	return builtBin
}

// buildFlags are the Makefile's BUILDFLAGS (TestMakefileBuildsAsTheTestsDo
// keeps the two alike).
const buildFlags = "-gcflags=all=-dwarf=false"

// goBuild is `go build args…` as make build runs it, without cgo and
// stripped (but with full file paths: no -trimpath), so the e2e tests run
// the binary users build. Every build the tests make goes through it (or
// goIn): they share one build cache entry with make test's warm-up build
// instead of compiling keel again (~100 s of CPU cold).
func goBuild(args ...string) *exec.Cmd {
	flags := append(strings.Fields(buildFlags), "-ldflags=-s -w")
	cmd := exec.Command("go", append(append([]string{"build"}, flags...), args...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd
}

// project makes a git-less project directory with a couple of files.
func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"main.go": "package main\n\nfunc main() {}\n", "README.md": "# demo\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runKeel runs the binary against srv with a private HOME and data dir.
func runKeel(t *testing.T, srv *llmtest.Server, dir string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runKeelHome(t, t.TempDir(), srv, dir, stdin, args...)
}

// runKeelHome runs the binary with HOME (and so the datalog) at home.
func runKeelHome(t *testing.T, home string, srv *llmtest.Server, dir string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runKeelEnv(t, home, nil, srv, dir, stdin, args...)
}

// runKeelEnv is runKeelHome with more environment variables.
func runKeelEnv(t *testing.T, home string, env []string, srv *llmtest.Server, dir string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	// The binary is built before the deadline starts: a cold build on a
	// busy machine takes minutes. The deadline is only a hang guard.
	bin := keelBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.WaitDelay = 5 * time.Second
	cmd.Dir = dir
	cmd.Env = []string{
		"HOME=" + home, "PATH=" + os.Getenv("PATH"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"OPENAI_API_KEY=sk-test-e2e-secret-123456",
		"GOCACHE=" + goEnv(t, "GOCACHE"), "GOMODCACHE=" + goEnv(t, "GOMODCACHE"),
	}
	if srv != nil {
		cmd.Env = append(cmd.Env, "OPENAI_BASE_URL="+srv.URL())
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run keel: %v", err)
	}
	return out.String(), errb.String(), code
}

func TestHeadlessJSONTwoToolCallsThenAnswer(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "read_file", Args: `{"path":"main.go"}`}),
		llmtest.ToolRound(llmtest.Call{Name: "list_dir", Args: `{"path":"."}`}),
		llmtest.TextRound("main.go holds an empty main."),
	))
	out, errOut, code := runKeel(t, srv, project(t), "", "-p", "what is in main.go?", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, errOut)
	}
	var res struct {
		SessionID     string         `json:"session_id"`
		Result        string         `json:"result"`
		StopReason    string         `json:"stop_reason"`
		Turns         int            `json:"turns"`
		ToolCalls     int            `json:"tool_calls"`
		CostUSD       *float64       `json:"cost_usd"`
		Usage         map[string]int `json:"usage"`
		Interventions []any          `json:"interventions"`
		Denials       []any          `json:"permission_denials"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if res.StopReason != "completed" || res.Turns != 3 || res.ToolCalls != 2 || res.Result != "main.go holds an empty main." {
		t.Errorf("result = %+v", res)
	}
	if res.SessionID == "" || res.Interventions == nil || res.Denials == nil {
		t.Errorf("session id and empty lists expected: %s", out)
	}
	// the default model's built-in list price: 3 rounds of 100 tokens in at $0.40/M and 10 out at $1.60/M
	if res.CostUSD == nil || *res.CostUSD < 0.000167 || *res.CostUSD > 0.000169 {
		t.Errorf("cost_usd = %v, want the built-in price of gpt-4.1-mini, 0.000168: %s", res.CostUSD, out)
	}
	for _, k := range []string{"input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"} {
		if _, ok := res.Usage[k]; !ok {
			t.Errorf("usage lacks %s: %s", k, out)
		}
	}
	tool := srv.Requests()[1].Messages
	if got := tool[len(tool)-1].Content; !strings.Contains(got, "func main()") {
		t.Errorf("read_file result sent to the model = %q", got)
	}
}

func TestHeadlessExitCodes(t *testing.T) {
	loop := make([]llmtest.Round, 0, 10)
	for i := 0; i < 10; i++ {
		loop = append(loop, llmtest.ToolRound(llmtest.Call{Name: "glob", Args: fmt.Sprintf(`{"pattern":"*%d*"}`, i)}))
	}
	cases := []struct {
		name   string
		rounds []llmtest.Round
		args   []string
		code   int
		stderr string
	}{
		{"completed", []llmtest.Round{llmtest.TextRound("hi")}, nil, 0, ""},
		{"max turns halts", loop, []string{"--max-turns", "2"}, 3, "max_turns"},
		{"provider error fails", []llmtest.Round{llmtest.ErrorRound(401, "bad key")}, nil, 1, "OPENAI_API_KEY"},
		{"bad flag is usage", nil, []string{"--max-turns", "x"}, 2, "--max-turns wants a whole number"},
		{"bad output format", nil, []string{"--output-format", "yaml"}, 2, "--output-format"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Rounds(c.rounds...))
			args := append([]string{"-p", "hello"}, c.args...)
			_, errOut, code := runKeel(t, srv, project(t), "", args...)
			if code != c.code || !strings.Contains(errOut, c.stderr) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)", code, c.code, errOut, c.stderr)
			}
		})
	}
}

func TestPromptFromStdin(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("read it")))
	out, errOut, code := runKeel(t, srv, project(t), "prompt on stdin", "-p", "-")
	if code != 0 || strings.TrimSpace(out) != "read it" {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	if got := srv.Requests()[0].Messages[1].Content; got != "prompt on stdin" {
		t.Errorf("prompt sent = %q", got)
	}
}

func TestConfigShowsFlagSource(t *testing.T) {
	out, errOut, code := runKeel(t, nil, project(t), "", "--reflection-cadence", "3", "config")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "reflection_cadence") {
			line = l
		}
	}
	if !strings.Contains(line, "reflection_cadence = 3") || !strings.Contains(line, "flag --reflection-cadence") {
		t.Errorf("reflection_cadence line = %q", line)
	}
}

func TestHelpListsCadenceAndExitCodes(t *testing.T) {
	out, _, code := runKeel(t, nil, project(t), "", "--help")
	for _, want := range []string{"--reflection-cadence", "Exit codes", "130"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q (exit %d)", want, code)
		}
	}
}

func TestBadConfigIsExit2WithPosition(t *testing.T) {
	dir := project(t)
	cfg := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(cfg, []byte("model = \"x\"\nreflection_cadence = \"ten\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runKeel(t, nil, dir, "", "--config", cfg, "config")
	if code != 2 || !strings.Contains(errOut, cfg+":2:") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestReadLoopHaltsWithExit3(t *testing.T) {
	read := llmtest.ToolRound(llmtest.Call{Name: "read_file", Args: `{"path":"main.go"}`})
	srv := llmtest.Start(t, llmtest.Rounds(read, read, read, read, read, read))
	out, errOut, code := runKeel(t, srv, project(t), "", "-p", "read main.go", "--output-format", "json")
	if code != 3 {
		t.Fatalf("exit %d, want 3; stderr %s", code, errOut)
	}
	var res struct {
		StopReason    string `json:"stop_reason"`
		Interventions []struct {
			Kind       string `json:"kind"`
			AtToolCall int    `json:"at_tool_call"`
			Message    string `json:"message"`
		} `json:"interventions"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if res.StopReason != "loop_detected" || len(res.Interventions) < 2 {
		t.Fatalf("result %+v", res)
	}
	first, last := res.Interventions[0], res.Interventions[len(res.Interventions)-1]
	if first.Kind != "reread" || first.AtToolCall != 3 || !strings.Contains(first.Message, "main.go") || last.Kind != "halt" {
		t.Errorf("interventions = %+v", res.Interventions)
	}
}

// dbFiles reads the datalog and its WAL files under home.
func dbFiles(t *testing.T, home string) [][]byte {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(home, "data", "keel", "keel.db*"))
	if len(matches) == 0 {
		t.Fatal("no datalog was written")
	}
	var out [][]byte
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// goEnv reads a go env value once, so child go commands share the cache.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	goEnvOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
		if err == nil {
			f := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(f) == 2 {
				goEnvVals = map[string]string{"GOCACHE": f[0], "GOMODCACHE": f[1]}
			}
		}
	})
	return goEnvVals[name]
}

var (
	goEnvOnce sync.Once
	goEnvVals map[string]string
)

// TestMain fails the run if any run of the binary logged an internal
// error, and removes the binary keelBinary built.
func TestMain(m *testing.M) {
	sandbox.Main() // in-process sessions start commands through this binary
	raiseParallel(8)
	code := m.Run()
	if builtBin != "" {
		if data, err := os.ReadFile(internalErrorsFile(filepath.Dir(builtBin))); err == nil && len(data) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: keel logged internal errors during the e2e suites:\n%s", data)
			code = 1
		}
		os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

// raiseParallel lets n parallel tests run at once instead of go test's
// default of one per CPU, unless -parallel was given (make soak gives 4).
// This package's tests spend most of their time waiting on keel, tmux,
// node and go processes, not computing: two at a time on a 2-core
// machine left the CPUs idle and made the package the last of make test
// by about two minutes (issue 29).
func raiseParallel(n int) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given && runtime.GOMAXPROCS(0) < n {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}

// internalErrorsFile is where the binary's runs log internal errors.
func internalErrorsFile(dir string) string { return filepath.Join(dir, "internal-errors.log") }
