package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// devices are the device files approved commands commonly write.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/random", "/dev/urandom", "/dev/pts", "/dev/shm"}

// DefaultWritable are the toolchains' download and build caches that an
// approved command may write besides the workspace and temp directories
// ("~/" is the home directory). Their homes are not: ~/.cargo/env,
// ~/go/bin or ~/.npmrc would run later, outside any sandbox. The
// configuration's [sandbox] writable replaces this list.
var DefaultWritable = []string{"~/.cache", "~/go/pkg/mod", "~/.cargo/registry", "~/.cargo/git", "~/.npm/_cacache",
	"~/.m2/repository", "~/.gradle/caches", "~/.gradle/wrapper/dists", "~/.pnpm-store", "~/.local/share/pnpm/store",
	"~/.yarn/berry/cache", "~/.bun/install/cache", "~/.nuget/packages"}

// DefaultReadable are what a command keel runs without asking may read
// outside the workspace and the system's directories: toolchains
// (executable) and their caches, and git's own configuration files.
// Credentials next to them (~/.cargo/credentials.toml, ~/.npmrc,
// ~/.m2/settings.xml, ~/.git-credentials) are left out on purpose. The
// configuration's [sandbox] readable replaces this list.
var DefaultReadable = []string{"~/go", "~/.cache/go-build", "~/.cargo/bin", "~/.cargo/registry", "~/.cargo/git", "~/.rustup",
	"~/.nvm", "~/.pyenv", "~/.local/bin", "~/.local/lib", "~/.m2/repository", "~/.gradle/caches", "~/.gradle/wrapper",
	"~/.bun/bin", "~/.deno/bin", "~/.sdkman/candidates", "~/.gitconfig", "~/.config/git/config", "~/.config/git/ignore",
	"~/.config/git/attributes"}

// Writable is where an approved command may write: the workspace (and
// the git directory it points to, for worktrees), temp directories,
// device files, the caches the environment names, and caches (entries
// of DefaultWritable or the user's list, "~/" expanded). getenv reads
// the environment.
func Writable(workspace string, caches []string, getenv func(string) string) []string {
	out := []string{workspace}
	out = append(out, gitDirs(workspace)...)
	for _, t := range []string{getenv("TMPDIR"), os.TempDir(), "/tmp", "/var/tmp"} {
		if t != "" {
			out = append(out, t)
		}
	}
	out = append(out, devices...)
	for _, v := range []string{"XDG_CACHE_HOME", "GOCACHE", "GOMODCACHE", "npm_config_cache"} {
		out = append(out, absList(getenv(v))...)
	}
	return append(out, expandAll(caches, getenv("HOME"))...)
}

// systemRunnable are the system's directories of programs and libraries.
var systemRunnable = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix/store"}

// etcSecrets are the entries of /etc that hold credentials or private
// keys; the rest of /etc is readable.
var etcSecrets = map[string]bool{"shadow": true, "shadow-": true, "gshadow": true, "gshadow-": true, "sudoers": true,
	"sudoers.d": true, "ssh": true, "ssl": true, "pki": true, "security": true, "krb5.keytab": true, "wireguard": true,
	"NetworkManager": true, "ppp": true, "letsencrypt": true, "docker": true, "containerd": true, "kubernetes": true,
	"rancher": true, "libvirt": true, "openvpn": true, "ipsec.secrets": true, "ipsec.d": true, "credstore": true,
	"credstore.encrypted": true, "netplan": true, "cups": true, "keel": true}

// ReadOnly is the spec of commands keel runs without asking: they may
// read the workspace, /etc (but its secrets), /proc, /sys and the
// entries of readable ("~/" expanded); read and execute the system's
// programs, those on PATH and the toolchains GOROOT names; write nothing
// but a private temporary directory and a few devices; and reach no
// network.
func ReadOnly(workspace string, readable []string, getenv func(string) string) Spec {
	s := Spec{ReadOnly: true, NoNetwork: true}
	s.Readable = append([]string{workspace, "/proc", "/sys"}, gitDirs(workspace)...)
	if ents, err := os.ReadDir("/etc"); err == nil {
		for _, e := range ents {
			if !etcSecrets[e.Name()] {
				s.Readable = append(s.Readable, filepath.Join("/etc", e.Name()))
			}
		}
	}
	home := getenv("HOME")
	s.Readable = append(s.Readable, expandAll(readable, home)...)
	s.Readable = append(s.Readable, absList(getenv("GOMODCACHE"))...)
	s.Readable = append(s.Readable, absList(getenv("GOCACHE"))...)
	s.Runnable = append(s.Runnable, systemRunnable...)
	for _, d := range absList(getenv("PATH")) {
		if d != "/" && d != home && d != workspace && !strings.HasPrefix(d, workspace+"/") {
			s.Runnable = append(s.Runnable, d)
		}
	}
	s.Runnable = append(s.Runnable, absList(getenv("GOROOT"))...)
	return s
}

// expandAll turns "~/x" into home/x and keeps absolute paths; others
// (and "~/…" without a home) are dropped.
func expandAll(paths []string, home string) []string {
	var out []string
	for _, p := range paths {
		switch {
		case strings.HasPrefix(p, "~/") && home != "":
			out = append(out, filepath.Join(home, p[2:]))
		case filepath.IsAbs(p):
			out = append(out, p)
		}
	}
	return out
}

// absList is the absolute entries of a PATH-style list.
func absList(v string) []string {
	var out []string
	for _, p := range filepath.SplitList(v) {
		if filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// Protected are the paths an approved command may not change, though the
// workspace is writable: the repository's hooks and configuration
// (those of the main repository too, for a worktree), keel's own
// directory and the instruction files keel reads, from the workspace
// root down to cwd. Paths that do not exist yet are listed too: the
// guard checks they stay absent.
func Protected(workspace, cwd string) []string {
	var out []string
	for _, g := range append([]string{filepath.Join(workspace, ".git")}, gitDirs(workspace)...) {
		if fi, err := os.Stat(g); err == nil && fi.IsDir() {
			out = append(out, filepath.Join(g, "hooks"), filepath.Join(g, "config"), filepath.Join(g, "config.worktree"))
		}
	}
	for d := filepath.Clean(cwd); ; d = filepath.Dir(d) {
		out = append(out, filepath.Join(d, "AGENTS.md"), filepath.Join(d, ".keel"))
		if d == workspace || d == filepath.Dir(d) || !strings.HasPrefix(d, workspace) {
			break
		}
	}
	return out
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
