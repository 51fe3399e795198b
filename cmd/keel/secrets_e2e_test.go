package main

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
)

// tokenShapes are secrets of distinct shapes: one per gitleaks rule,
// taken from the examples the rules ship with (the ones keel's rule table
// is tested against), plus those the issue saw stored raw.
func tokenShapes(t *testing.T, n int) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "internal", "secretscan", "testdata", "gitleaks_examples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	plain := regexp.MustCompile(`^[A-Za-z0-9_.~+/=-]{20,200}$`)
	out := map[string]string{
		"openai-project": "sk-proj-" + "Qw3rTy7uI9oP1aS5dF8gH2jK4lZ6xC0vB3nM5qW7eR9tY1uI3oP5aS7dF9g",
		"github-pat":     "ghp_" + "R8xK2mQ9vL4nP7wT1zY5bC3dF6gH0jA2sE4u",
		"aws-secret":     "aws_secret_access_key = " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && len(out) < n {
		var e struct {
			ID      string
			Secrets []string
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		for _, s := range e.Secrets {
			if plain.MatchString(s) {
				out[e.ID] = s
				break
			}
		}
	}
	if len(out) < n {
		t.Fatalf("only %d token shapes", len(out))
	}
	return out
}

// Token-shaped secrets in the prompt, a command's output, a file keel
// writes and the model's answer never reach the datalog raw: every file
// under the data directory (the database, its WAL and shared memory) is read
// byte for byte, and keel log show and export show the marks.
func TestTokenShapedSecretsNeverReachTheDatalog(t *testing.T) {
	tokens := tokenShapes(t, 24)
	var all []string
	for _, s := range tokens {
		all = append(all, s)
	}
	sort.Strings(all)
	text := strings.Join(all, "\n")
	home, dir := t.TempDir(), project(t)
	if err := os.WriteFile(filepath.Join(dir, "tokens.txt"), []byte(text+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	content, _ := json.Marshal(text)
	srv := llmtest.Start(t, llmtest.Rounds(
		runCall("cat tokens.txt"),
		llmtest.ToolRound(llmtest.Call{Name: "write_file", Args: `{"path":"config.env","content":` + string(content) + `}`}),
		llmtest.TextRound("here they are:\n"+text),
	))
	out, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "remember these:\n"+text, "--allow", "write_file", "--output-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, errOut, out)
	}
	if got := toolOutputs(srv); !strings.Contains(got, all[0]) {
		t.Fatalf("the command's output did not reach the model, so nothing was tested:\n%s", got)
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.SessionID == "" {
		t.Fatalf("no session id: %v %s", err, out)
	}
	stored := 0
	filepath.WalkDir(filepath.Join(home, "data"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		stored += len(b)
		for id, s := range tokens {
			if strings.Contains(string(b), s) {
				t.Errorf("%s is stored raw in %s", id, p)
			}
		}
		return nil
	})
	if stored == 0 {
		t.Fatal("no datalog was written")
	}
	for _, args := range [][]string{{"log", "show", res.SessionID[:12]}, {"log", "export", res.SessionID[:12], "--format", "jsonl"},
		{"log", "export", res.SessionID[:12], "--format", "markdown"}} {
		out, errOut, code := runKeelHome(t, home, nil, dir, "", args...)
		if code != 0 {
			t.Fatalf("keel %v: exit %d: %s", args, code, errOut)
		}
		if !strings.Contains(out, "[REDACTED:") {
			t.Errorf("keel %v shows no mark:\n%.2000s", args, out)
		}
		for id, s := range tokens {
			if strings.Contains(out, s) {
				t.Errorf("keel %v shows %s raw", args, id)
			}
		}
	}
}
