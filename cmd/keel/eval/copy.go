package eval

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// prepareCopy extracts t's project into a new directory below parent and
// makes it a git repository with one commit, so the copy is its own
// workspace (and `git diff` shows the model's changes). Without git, a
// parent inside another repository is refused: that repository would
// become the workspace.
func prepareCopy(ctx context.Context, parent string, t *Task) (string, error) {
	base, err := os.MkdirTemp(parent, t.Name+"-")
	if err != nil {
		return "", fmt.Errorf("create a directory for task %s: %w", t.Name, err)
	}
	dir := filepath.Join(base, t.Name)
	if err := t.Extract(dir); err != nil {
		return "", err
	}
	if gitInit(ctx, dir) == nil {
		return dir, nil
	}
	if repo := enclosingRepo(dir); repo != "" {
		return "", fmt.Errorf("the temporary directory %s is inside the git repository %s and git is not available to make the copy its own: set TMPDIR to a directory outside it", parent, repo)
	}
	return dir, nil
}

// gitInit makes dir a repository with its files committed, ignoring the
// user's git configuration (hooks, templates, signing).
func gitInit(ctx context.Context, dir string) error {
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.name=keel eval", "-c", "user.email=eval@keel.invalid", "-c", "commit.gpgsign=false",
			"commit", "-q", "--no-verify", "-m", "the task's project"},
	} {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			_ = os.RemoveAll(filepath.Join(dir, ".git"))
			return fmt.Errorf("git %s: %v: %s", args[0], err, out)
		}
	}
	return nil
}

// enclosingRepo is the nearest ancestor of dir holding .git, or "".
func enclosingRepo(dir string) string {
	for d := filepath.Dir(dir); d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
	}
	return ""
}
