package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// devices are the device files commands commonly write.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/random", "/dev/urandom", "/dev/pts", "/dev/shm"}

// homeCaches are directories under $HOME where toolchains keep downloads
// and build caches: a build or a test writes there.
var homeCaches = []string{".cache", "go", ".npm", ".cargo", ".m2", ".gradle", ".pnpm-store", ".yarn", ".bun", ".deno", ".local/share/pnpm", ".nuget"}

// Writable is where a confined command may write: the workspace (and the
// git directory it points to, for worktrees), temp directories, device
// files, toolchain caches, and extra. getenv reads the environment.
func Writable(workspace string, extra []string, getenv func(string) string) []string {
	out := []string{workspace}
	out = append(out, gitDirs(workspace)...)
	for _, t := range []string{getenv("TMPDIR"), os.TempDir(), "/tmp", "/var/tmp"} {
		if t != "" {
			out = append(out, t)
		}
	}
	out = append(out, devices...)
	for _, v := range []string{"XDG_CACHE_HOME", "GOPATH", "GOCACHE", "GOMODCACHE", "CARGO_HOME", "npm_config_cache"} {
		for _, p := range filepath.SplitList(getenv(v)) {
			if filepath.IsAbs(p) {
				out = append(out, p)
			}
		}
	}
	if home := getenv("HOME"); home != "" {
		for _, c := range homeCaches {
			out = append(out, filepath.Join(home, c))
		}
	}
	return append(out, extra...)
}

// gitDirs are the directories a worktree's or submodule's .git file
// points to, which git writes on commit.
func gitDirs(workspace string) []string {
	b, err := os.ReadFile(filepath.Join(workspace, ".git"))
	if err != nil {
		return nil // a directory (read fails) or no git at all
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return nil
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(workspace, dir)
	}
	out := []string{dir}
	if i := strings.LastIndex(dir, string(filepath.Separator)+".git"+string(filepath.Separator)); i >= 0 {
		out = append(out, dir[:i+5]) // the main repository's .git of a worktree
	}
	return out
}
