package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// editBoth is a server whose model reads main.go and README.md, then
// writes new contents into both, then answers "edited both" to whatever
// comes next (a guard's nudge included).
func editBoth(t *testing.T) *llmtest.Server {
	rounds := []llmtest.Round{
		llmtest.ToolRound(llmtest.Call{Name: "read_file", Args: `{"path":"main.go"}`}, llmtest.Call{Name: "read_file", Args: `{"path":"README.md"}`}),
		llmtest.ToolRound(
			llmtest.Call{Name: "write_file", Args: `{"path":"main.go","content":"package main\n\nfunc main() { println(1) }\n"}`},
			llmtest.Call{Name: "write_file", Args: `{"path":"README.md","content":"# changed\n"}`}),
	}
	return llmtest.Start(t, llmtest.Script{Handler: func(_ llmtest.RecordedRequest, n int) llmtest.Round {
		if n < len(rounds) {
			return rounds[n]
		}
		return llmtest.TextRound("edited both")
	}})
}

// TestUndoNamesWhatItRestoredAndWhatNot: keel undo names the file it
// restored and the one it left (changed since keel wrote it), with why,
// and exits non-zero; once that file is back as keel left it, the next
// undo restores it.
func TestUndoNamesWhatItRestoredAndWhatNot(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), project(t)
	srv := editBoth(t)
	if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "edit both", "--yolo"); code != 0 {
		t.Fatalf("task: %d %s", code, errOut)
	}
	readme := filepath.Join(dir, "README.md")
	if err := os.WriteFile(readme, []byte("# the user's own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runKeelHome(t, home, nil, dir, "", "undo")
	all := out + errOut
	if code == 0 || !strings.Contains(all, "restored main.go") ||
		!strings.Contains(all, "README.md (it changed since keel wrote it)") {
		t.Fatalf("undo: exit %d: %s", code, all)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(b) != "package main\n\nfunc main() {}\n" {
		t.Errorf("main.go not restored: %q", b)
	}
	if b, _ := os.ReadFile(readme); string(b) != "# the user's own\n" {
		t.Errorf("undo overwrote the user's README.md: %q", b)
	}
	if err := os.WriteFile(readme, []byte("# changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runKeelHome(t, home, nil, dir, "", "undo")
	if b, _ := os.ReadFile(readme); code != 0 || string(b) != "# demo\n" || !strings.Contains(out+errOut, "README.md") {
		t.Errorf("the second undo: exit %d, README.md %q: %s%s", code, b, out, errOut)
	}
}

// TestSlashUndoNamesFilesInTmux: /undo in the TUI says which files it
// restored and which it left, and why.
func TestSlashUndoNamesFilesInTmux(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), project(t)
	srv := editBoth(t)
	tm := startTmux(t, tmuxEnv(home, srv), dir, "--yolo")
	tm.waitFor("Ask keel")
	tm.keys("edit both", "Enter")
	tm.waitFor("edited both")
	tm.waitTitle(ui.TitleReady)
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# the user's own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.keys("/undo", "Enter")
	tm.waitFor("restored main.go", "README.md (it changed since keel wrote it)")
}
