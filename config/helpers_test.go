package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeEnv is an injected environment; tests never read the real one.
type fakeEnv map[string]string

func (e fakeEnv) get(k string) string { return e[k] }

// world is a temporary HOME with a user config dir and a git project whose
// working directory is one level below the root.
type world struct {
	home, root, cwd string
	userFile        string
	projectFile     string
	env             fakeEnv
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{home: t.TempDir(), root: t.TempDir(), env: fakeEnv{}}
	w.env["HOME"] = w.home
	w.cwd = filepath.Join(w.root, "sub")
	mkdir(t, filepath.Join(w.root, ".git"))
	mkdir(t, w.cwd)
	w.userFile = filepath.Join(w.home, ".config", "keel", "config.toml")
	w.projectFile = filepath.Join(w.root, ".keel", "config.toml")
	return w
}

// opts returns LoadOptions for this world.
func (w *world) opts(flags ...Override) LoadOptions {
	return LoadOptions{Cwd: w.cwd, Getenv: w.env.get, Flags: flags}
}

// load runs Load and fails the test on error.
func (w *world) load(t *testing.T, flags ...Override) (*Config, []Warning) {
	t.Helper()
	c, warns, err := Load(w.opts(flags...))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c, warns
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// values strips what Load remembers besides the settings, for comparisons.
func values(c *Config) Config {
	v := *c
	v.sources, v.files, v.dataHomeDir = nil, nil, ""
	return v
}

// lines joins lines with newlines, for readable TOML in tables.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// trust records the world's project as trusted in the user's trust file,
// with its .keel/config.toml as it is now, the way "keel trust" does.
func (w *world) trust(t *testing.T) {
	t.Helper()
	sha, err := ProjectConfigSHA256(w.root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewTrustStore(w.env.get).Add(w.root, sha); err != nil {
		t.Fatal(err)
	}
}
