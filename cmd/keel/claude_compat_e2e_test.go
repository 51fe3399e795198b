package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
)

// runClaudeScript runs one of testdata/claude's scripts, written for
// Claude Code, with `claude` on PATH leading to keel.
func runClaudeScript(t *testing.T, srv *llmtest.Server, dir, script string, args ...string) (string, string) {
	t.Helper()
	bin := t.TempDir()
	if err := os.Symlink(keelBinary(t), filepath.Join(bin, "claude")); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join("testdata", "claude", script))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{abs}, args...)...)
	home := t.TempDir()
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "PATH=" + bin + ":" + os.Getenv("PATH"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"OPENAI_API_KEY=sk-test-e2e-secret-123456", "OPENAI_BASE_URL=" + srv.URL()}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\nstdout: %s\nstderr: %s", script, err, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

func TestClaudeCodeScriptsRunOnKeel(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed (.ci/run installs it)")
	}
	t.Run("stream-json: session, texts, tool uses, cost", func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.Rounds(
			llmtest.Round{Text: "Reading main.go first.", ToolCalls: []llmtest.Call{{ID: "call_1", Name: "read_file", Args: `{"path":"main.go"}`}}},
			llmtest.TextRound("main.go holds an empty main."),
		))
		out, _ := runClaudeScript(t, srv, project(t), "stream.sh", "what is in main.go?")
		want := regexp.MustCompile(`^session: [0-9a-f]{16}
Reading main.go first.
main.go holds an empty main.
tool: read_file {"path":"main.go"}
cost: 0.000112
$`)
		if !want.MatchString(out) {
			t.Errorf("the script printed:\n%s\nwant:\n%s", out, want)
		}
	})
	t.Run("partial messages", func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.Rounds(llmtest.Round{Text: "Roses are red, tests are green.", TextChunk: 4}))
		out, _ := runClaudeScript(t, srv, project(t), "partial.sh", "write a poem")
		if out != "Roses are red, tests are green." {
			t.Errorf("the script printed %q", out)
		}
	})
	t.Run("json: resume by session id", func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("first answer"), llmtest.TextRound("second answer")))
		out, _ := runClaudeScript(t, srv, project(t), "resume.sh", "start a review", "go on")
		if out != "second answer\n" {
			t.Errorf("the script printed %q", out)
		}
		if msgs := srv.Requests()[1].Messages; len(msgs) < 4 || msgs[1].Content != "start a review" {
			t.Errorf("the resumed request does not carry the first task: %+v", msgs)
		}
	})
}

func TestStartupErrorsAreAResultInJSONModes(t *testing.T) {
	cases := []struct {
		name string
		env  []string
		args []string
		code int
		want string
	}{
		{"unknown --resume id", nil, []string{"--resume", "ffffffffffff"}, 2, "ffffffffffff"},
		{"no API key", []string{"OPENAI_API_KEY="}, nil, 2, "OPENAI_API_KEY"},
		{"a bad flag value", nil, []string{"--max-turns", "x"}, 2, "--max-turns wants a whole number"},
	}
	for _, format := range []string{"json", "stream-json"} {
		for _, c := range cases {
			t.Run(format+"/"+c.name, func(t *testing.T) {
				args := append([]string{"-p", "hi", "--output-format", format}, c.args...)
				out, errOut, code := runKeelEnv(t, t.TempDir(), c.env, nil, project(t), "", args...)
				if code != c.code || !strings.Contains(errOut, c.want) {
					t.Errorf("exit %d (want %d), stderr %q (want %q)", code, c.code, errOut, c.want)
				}
				var res struct {
					Type    string   `json:"type"`
					Subtype string   `json:"subtype"`
					IsError bool     `json:"is_error"`
					Result  string   `json:"result"`
					Errors  []string `json:"errors"`
				}
				if err := json.Unmarshal([]byte(out), &res); err != nil {
					t.Fatalf("stdout is not one result object: %v: %q", err, out)
				}
				if res.Type != "result" || !res.IsError || res.Subtype != "error_during_execution" || !strings.Contains(res.Result, c.want) || len(res.Errors) != 1 {
					t.Errorf("result = %+v", res)
				}
			})
		}
	}
	t.Run("text format prints nothing on stdout", func(t *testing.T) {
		out, _, code := runKeelEnv(t, t.TempDir(), nil, nil, project(t), "", "-p", "hi", "--resume", "ffffffffffff")
		if code != 2 || out != "" {
			t.Errorf("exit %d, stdout %q", code, out)
		}
	})
}

func TestPrintIsAnAliasAndThePromptMayFollowTheFlags(t *testing.T) {
	cases := [][]string{
		{"--print", "hello there"},
		{"-p", "--output-format", "text", "hello there"},
		{"--print", "--verbose", "hello there"},
		{"hello there", "-p"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("hi")))
			out, errOut, code := runKeel(t, srv, project(t), "", args...)
			if code != 0 || out != "hi\n" {
				t.Fatalf("exit %d, out %q, err %q", code, out, errOut)
			}
			if got := srv.Requests()[0].Messages[1].Content; got != "hello there" {
				t.Errorf("prompt sent = %q", got)
			}
		})
	}
	t.Run("a -p alone reads stdin", func(t *testing.T) {
		srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("hi")))
		if _, errOut, code := runKeel(t, srv, project(t), "from stdin", "-p"); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if got := srv.Requests()[0].Messages[1].Content; got != "from stdin" {
			t.Errorf("prompt sent = %q", got)
		}
	})
	t.Run("two prompts are a usage error", func(t *testing.T) {
		_, errOut, code := runKeel(t, nil, project(t), "", "-p", "fix", "the bug")
		if code != 2 || !strings.Contains(errOut, "takes one prompt") {
			t.Errorf("exit %d: %s", code, errOut)
		}
	})
}
