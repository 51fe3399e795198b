package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFindInstructionsNearestLast(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "svc", "api")
	for _, d := range []string{sub, filepath.Join(sub, ".keel")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "AGENTS.md"), "root rules")
	write(filepath.Join(root, "svc", "AGENTS.md"), "   \n") // blank: skipped
	write(filepath.Join(sub, ".keel", "instructions.md"), "api rules")
	write(filepath.Join(filepath.Dir(root), "AGENTS.md.outside"), "never")

	got := FindInstructions(sub, root)
	var texts []string
	for _, in := range got {
		texts = append(texts, in.Text)
	}
	if strings.Join(texts, "|") != "root rules|api rules" {
		t.Errorf("instructions = %q", texts)
	}
	prompt := SystemPrompt(PromptEnv{Cwd: sub, Workspace: root, GitBranch: "main", Date: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), OS: "linux/amd64", Instructions: got})
	for _, want := range []string{"Read before you edit", "Verify after you edit", "update_plan", "git branch: main", "2026-01-02", "api rules"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
}

func TestGitBranch(t *testing.T) {
	root := t.TempDir()
	if got := gitBranch(root); got != "" {
		t.Errorf("no repository: %q", got)
	}
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/feature/x\n")
	if got := gitBranch(root); got != "feature/x" {
		t.Errorf("branch = %q", got)
	}
	write(filepath.Join(root, ".git", "HEAD"), "0123456789abcdef0123456789abcdef01234567\n")
	if got := gitBranch(root); got != "detached at 0123456789ab" {
		t.Errorf("detached = %q", got)
	}
	wt := t.TempDir()
	write(filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(root, ".git", "worktrees", "wt")+"\n")
	write(filepath.Join(root, ".git", "worktrees", "wt", "HEAD"), "ref: refs/heads/wt-branch\n")
	if got := gitBranch(wt); got != "wt-branch" {
		t.Errorf("worktree branch = %q", got)
	}
}
