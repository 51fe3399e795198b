package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newTestWS makes a git-like workspace in a temp dir with the given files
// and a fake home directory for ~.
func newTestWS(t testing.TB, files map[string]string) *Workspace {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	mustMkdir(t, filepath.Join(root, ".git"))
	for name, content := range files {
		writeTestFile(t, filepath.Join(root, name), content)
	}
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	ws.home = filepath.Join(ws.root, "..", "home")
	ws.home, _ = filepath.Abs(ws.home)
	mustMkdir(t, ws.home)
	return ws
}

func mustMkdir(t testing.TB, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeTestFile(t testing.TB, p, content string) {
	t.Helper()
	mustMkdir(t, filepath.Dir(p))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// call runs the named tool of New(ws, opts) with args marshalled to JSON.
func call(t testing.TB, ws *Workspace, opts Options, name string, args any) Result {
	t.Helper()
	tool, ok := Lookup(New(ws, opts), name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tool.Run(WithWrites(context.Background()), raw) // as an approved call
	if err != nil {
		t.Fatalf("%s: harness error: %v", name, err)
	}
	return res
}

type m = map[string]any

// wantOutput checks IsError and that the output contains every substring.
func wantOutput(t testing.TB, res Result, isErr bool, subs ...string) {
	t.Helper()
	if res.IsError != isErr {
		t.Errorf("IsError = %v, want %v; output:\n%s", res.IsError, isErr, res.Output)
	}
	for _, s := range subs {
		if !strings.Contains(res.Output, s) {
			t.Errorf("output lacks %q:\n%s", s, res.Output)
		}
	}
}

// Lookup returns the tool called name from ts.
func Lookup(ts []Tool, name string) (Tool, bool) {
	for _, t := range ts {
		if t.Name() == name {
			return t, true
		}
	}
	return nil, false
}
