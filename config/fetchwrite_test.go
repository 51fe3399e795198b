package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAllowFetchDomain(t *testing.T) {
	cases := []struct {
		name, before, want string
	}{
		{"no file", "", "[fetch]\nallow_domains = [\"go.dev\"]\n"},
		{"no [fetch] table", "# mine\nmodel = \"m\"\n\n[ui]\ntheme = \"dark\"",
			"# mine\nmodel = \"m\"\n\n[ui]\ntheme = \"dark\"\n\n[fetch]\nallow_domains = [\"go.dev\"]\n"},
		{"a [fetch] table without the key", "[fetch]\ntimeout = \"10s\" # slow net\n[ui]\ntheme = \"dark\"\n",
			"[fetch]\nallow_domains = [\"go.dev\"]\ntimeout = \"10s\" # slow net\n[ui]\ntheme = \"dark\"\n"},
		{"the key, over lines, with a comment after", "[fetch]\nallow_domains = [\n  \"a.test\", # first\n]   # keep me\ntimeout = \"10s\"\n",
			"[fetch]\nallow_domains = [\"a.test\", \"go.dev\"]   # keep me\ntimeout = \"10s\"\n"},
		{"a dotted key at the top", "fetch.allow_domains = [\"a.test\"]\nmodel = \"m\"\n",
			"fetch.allow_domains = [\"a.test\", \"go.dev\"]\nmodel = \"m\"\n"},
		{"already listed", "[fetch]\nallow_domains = [\"go.dev\"] # same\n", "[fetch]\nallow_domains = [\"go.dev\"] # same\n"},
		{"a [fetch] table after others", "# mine\nmodel = \"m\"\n\n[ui] # look\ntheme = \"dark\"\n\n[fetch]   # web\nallow_networks = [\"10.0.0.0/8\"]\n",
			"# mine\nmodel = \"m\"\n\n[ui] # look\ntheme = \"dark\"\n\n[fetch]   # web\nallow_domains = [\"go.dev\"]\nallow_networks = [\"10.0.0.0/8\"]\n"},
		{"the key in a later [fetch] table", "model = \"m\"\n[ui]\ntheme = \"dark\"\n[fetch]\ntimeout = \"5s\"\n  allow_domains = [] # none yet\n[datalog]\npath = \"/x.db\"\n",
			"model = \"m\"\n[ui]\ntheme = \"dark\"\n[fetch]\ntimeout = \"5s\"\n  allow_domains = [\"go.dev\"] # none yet\n[datalog]\npath = \"/x.db\"\n"},
		{"[fetch] last, no newline", "[fetch]", "[fetch]\nallow_domains = [\"go.dev\"]\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "keel", "config.toml")
			if c.before != "" {
				os.MkdirAll(filepath.Dir(path), 0o700)
				if err := os.WriteFile(path, []byte(c.before), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			if err := AllowFetchDomain(path, "go.dev"); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != c.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, c.want)
			}
			cfg, _, err := Load(LoadOptions{ConfigFile: path, Getenv: func(string) string { return "" }})
			if err != nil {
				t.Fatalf("the written file does not load: %v", err)
			}
			if !contains(cfg.Fetch.AllowDomains, "go.dev") {
				t.Fatalf("allow_domains = %q", cfg.Fetch.AllowDomains)
			}
			st, _ := os.Stat(path)
			if want := os.FileMode(0o640); c.before == "" {
				if st.Mode().Perm() != 0o600 {
					t.Fatalf("a new config file is %v, want private", st.Mode().Perm())
				}
			} else if st.Mode().Perm() != want {
				t.Fatalf("the file's mode changed to %v", st.Mode().Perm())
			}
		})
	}
}

func TestAllowFetchDomainRefuses(t *testing.T) {
	for name, doc := range map[string]string{
		"not TOML":     "model = \n",
		"inline table": "fetch = { timeout = \"5s\" }\n",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			os.WriteFile(path, []byte(doc), 0o600)
			err := AllowFetchDomain(path, "go.dev")
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("want an error naming the file, got %v", err)
			}
			if got, _ := os.ReadFile(path); string(got) != doc {
				t.Fatalf("the file changed: %q", got)
			}
		})
	}
}

func TestAllowFetchDomainKeepsSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles.toml")
	os.WriteFile(real, []byte("model = \"m\"\n"), 0o600)
	link := filepath.Join(dir, "config.toml")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if err := AllowFetchDomain(link, "go.dev"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if got, _ := os.ReadFile(real); !strings.Contains(string(got), "go.dev") {
		t.Fatalf("the link's target was not updated: %q", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestLoadFetch(t *testing.T) {
	load := func(doc string) (*Config, error) {
		path := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(path, []byte(doc), 0o600)
		cfg, _, err := Load(LoadOptions{ConfigFile: path, Getenv: func(string) string { return "" }})
		return cfg, err
	}
	cfg, err := load("")
	if err != nil || !cfg.Fetch.Enabled || cfg.Fetch.MaxBytes != 5<<20 || cfg.Fetch.Timeout.String() != "30s" || cfg.Fetch.MaxRedirects != 5 {
		t.Fatalf("defaults: %+v, %v", cfg.Fetch, err)
	}
	cfg, err = load("[fetch]\nallow_domains = [\"*.python.org\", \"[::1]\"]\nallow_networks = [\"127.0.0.1/32\", \"fd00::1\"]\ntimeout = \"2s\"\nmax_bytes = 1000\n")
	if err != nil || len(cfg.Fetch.AllowNetworks) != 2 || cfg.Fetch.Timeout.String() != "2s" || cfg.Fetch.MaxBytes != 1000 {
		t.Fatalf("set: %+v, %v", cfg.Fetch, err)
	}
	for doc, want := range map[string]string{
		"[fetch]\nallow_networks = [\"localhost\"]\n":         "fetch.allow_networks must list addresses",
		"[fetch]\nallow_domains = [\"https://go.dev/doc\"]\n": "fetch.allow_domains must list host names",
		"[fetch]\ntimeout = \"0s\"\n":                         "fetch.timeout must be a positive duration",
		"[fetch]\nmax_bytes = -1\n":                           "fetch.max_bytes must be 0 or more",
	} {
		if _, err := load(doc); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "config.toml:") {
			t.Errorf("%q: %v; want an error at the file's line with %q", doc, err, want)
		}
	}
}
