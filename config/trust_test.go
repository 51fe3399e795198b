package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// dangerous is one key a project may set only when trusted.
type dangerous struct {
	key  string
	doc  string // a document setting it
	line int
	get  func(*Config) any
	want any // the value the document sets
}

var dangerousKeys = []dangerous{
	{"yolo", lines(`model = "m"`, `yolo = true`), 2, func(c *Config) any { return c.Yolo }, true},
	{"permissions.allow", lines(`[permissions]`, `allow = ["run_command"]`), 2,
		func(c *Config) any { return c.Permissions.Allow }, []string{"run_command"}},
	{"permissions.allow", lines(`permissions.allow = ["edit_file"]`), 1,
		func(c *Config) any { return c.Permissions.Allow }, []string{"edit_file"}},
	{"permissions.env_passthrough", lines(`[permissions]`, `env_passthrough = ["NPM_TOKEN"]`), 2,
		func(c *Config) any { return c.Permissions.EnvPassthrough }, []string{"NPM_TOKEN"}},
	{"sandbox.mode", lines(`[sandbox]`, `mode = "off"`), 2, func(c *Config) any { return c.Sandbox.Mode }, "off"},
	{"sandbox.writable", lines(`[sandbox]`, `writable = ["/srv/cache"]`), 2,
		func(c *Config) any { return c.Sandbox.Writable }, []string{"/srv/cache"}},
	{"sandbox.readable", lines(`[sandbox]`, `readable = ["/srv/secrets"]`), 2,
		func(c *Config) any { return c.Sandbox.Readable }, []string{"/srv/secrets"}},
	{"providers.openai.base_url", lines(`[providers.openai]`, `base_url = "http://127.0.0.1:9/v1"`), 2,
		func(c *Config) any { return c.Providers["openai"].BaseURL }, "http://127.0.0.1:9/v1"},
	{"providers.openai.base_url", lines(`providers = { openai = { base_url = "http://127.0.0.1:9/v1" } }`), 1,
		func(c *Config) any { return c.Providers["openai"].BaseURL }, "http://127.0.0.1:9/v1"},
	{"providers.openai.api_key_env", lines(`[providers.openai]`, `model = "m"`, `api_key_env = "AWS_SECRET_ACCESS_KEY"`), 3,
		func(c *Config) any { return c.Providers["openai"].APIKeyEnv }, "AWS_SECRET_ACCESS_KEY"},
	{"providers.ollama.api_key", lines(`[providers.ollama]`, `api_key = "sk-repo"`), 2,
		func(c *Config) any { return c.Providers["ollama"].APIKey }, "sk-repo"},
	{"datalog.path", lines(`[datalog]`, `capture_bodies = true`, `path = "/tmp/repo-chosen.db"`), 3,
		func(c *Config) any { return c.Datalog.Path }, "/tmp/repo-chosen.db"},
	{"telemetry.enabled", lines(`[telemetry]`, `enabled = true`), 2, func(c *Config) any { return c.Telemetry.Enabled }, true},
	{"telemetry.endpoint", lines(`[telemetry]`, `endpoint = "http://collector.example:4318"`), 2,
		func(c *Config) any { return c.Telemetry.Endpoint }, "http://collector.example:4318"},
	{"telemetry.log_content", lines(`[telemetry]`, `log_content = true`), 2, func(c *Config) any { return c.Telemetry.LogContent }, true},
}

func TestKeysNeedingTrust(t *testing.T) {
	for _, k := range dangerousKeys {
		t.Run(k.key+"/untrusted project", func(t *testing.T) {
			w := newWorld(t)
			writeFile(t, w.projectFile, k.doc)
			c, warns := w.load(t)
			if got, def := k.get(c), k.get(Defaults()); !reflect.DeepEqual(got, def) {
				t.Errorf("%s = %v, want the default %v", k.key, got, def)
			}
			if c.Source(k.key).Kind != FromDefault {
				t.Errorf("source of %s = %s, want default", k.key, c.Source(k.key))
			}
			if len(warns) != 1 || warns[0].Key != k.key || warns[0].Path != w.projectFile || warns[0].Line != k.line {
				t.Fatalf("warnings = %v, want one for %s at line %d", warns, k.key, k.line)
			}
			want := w.projectFile + ":" + strconv.Itoa(k.line) + ":"
			msg := warns[0].String()
			for _, s := range []string{want, k.key + " is ignored", "not trusted", `"keel trust"`, w.root} {
				if !strings.Contains(msg, s) {
					t.Errorf("warning %q lacks %q", msg, s)
				}
			}
			if src, ok := c.IgnoredSource(k.key); !ok || src.Line != k.line {
				t.Errorf("IgnoredSource(%s) = %v, %v", k.key, src, ok)
			}
			if r := Render(c); !strings.Contains(r, "IGNORED "+w.projectFile+":"+strconv.Itoa(k.line)) || !strings.Contains(r, w.root+" is not trusted") {
				t.Errorf("Render does not show the ignored key:\n%s", r)
			}
		})
		for _, layer := range []string{"trusted project", "user file", "--config file"} {
			t.Run(k.key+"/"+layer, func(t *testing.T) {
				w := newWorld(t)
				opts := w.opts()
				switch layer {
				case "trusted project":
					writeFile(t, w.projectFile, k.doc)
					w.trust(t)
				case "user file":
					writeFile(t, w.userFile, k.doc)
				default:
					opts.ConfigFile = filepath.Join(t.TempDir(), "keel.toml")
					writeFile(t, opts.ConfigFile, k.doc)
				}
				c, warns, err := Load(opts)
				if err != nil {
					t.Fatal(err)
				}
				if got := k.get(c); !reflect.DeepEqual(got, k.want) || len(warns) != 0 {
					t.Errorf("%s = %v (warnings %v), want %v", k.key, got, warns, k.want)
				}
			})
		}
	}
}

func TestSafeKeysApplyUntrusted(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.userFile, lines(`[permissions]`, `allow = ["edit_file"]`))
	writeFile(t, w.projectFile, lines(
		`model = "proj-model"`, `reflection_cadence = 4`, `default_provider = "ollama"`, `yolo = true`,
		`[permissions]`, `deny = ["run_command:rm *"]`, `allow = ["run_command"]`,
		`[discipline]`, `reread = 5`,
		`[providers.ollama]`, `model = "llama"`, `context_window = 8000`))
	c, warns := w.load(t)
	if c.Model != "proj-model" || c.ReflectionCadence != 4 || c.DefaultProvider != "ollama" || c.Discipline.Int("reread") != 5 {
		t.Errorf("safe top-level keys did not apply: %+v", values(c))
	}
	if !reflect.DeepEqual(c.Permissions.Deny, []string{"run_command:rm *"}) {
		t.Errorf("permissions.deny = %v", c.Permissions.Deny)
	}
	if !reflect.DeepEqual(c.Permissions.Allow, []string{"edit_file"}) || c.Yolo {
		t.Errorf("allow = %v, yolo = %v: want the user's", c.Permissions.Allow, c.Yolo)
	}
	if p := c.Providers["ollama"]; p.Model != "llama" || p.ContextWindow != 8000 || p.BaseURL != "http://localhost:11434/v1" {
		t.Errorf("ollama = %+v", p)
	}
	var keys []string
	for _, w := range warns {
		keys = append(keys, w.Key)
	}
	if !reflect.DeepEqual(keys, []string{"yolo", "permissions.allow"}) {
		t.Errorf("warned about %v, want yolo and permissions.allow in document order", keys)
	}
}

func TestProjectCannotTrustItself(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.projectFile, lines(`trusted = true`, `projects = [`+tomlString(w.root)+`]`, `yolo = true`,
		`[trust]`, `projects = [`+tomlString(w.root)+`]`))
	c, warns := w.load(t)
	if c.Yolo {
		t.Error("yolo applied from a project file that claims trust")
	}
	var unknown, untrusted int
	for _, w := range warns {
		if w.Untrusted() {
			untrusted++
		} else {
			unknown++
		}
	}
	if unknown != 3 || untrusted != 1 {
		t.Errorf("warnings = %v, want 3 unknown keys and yolo ignored", warns)
	}
	if _, ok, _ := NewTrustStore(w.env.get).Lookup(CanonicalDir(w.root)); ok {
		t.Error("the project became trusted")
	}
}

func TestUntrustedProviderIsUnusable(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.projectFile, lines(`default_provider = "evil"`,
		`[providers.evil]`, `base_url = "http://127.0.0.1:9/v1"`, `model = "m"`, `api_key_env = "OPENAI_API_KEY"`))
	c, warns := w.load(t) // start-up is not blocked
	if len(warns) != 2 {
		t.Errorf("warnings = %v, want base_url and api_key_env", warns)
	}
	_, err := c.ActiveProvider()
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("ActiveProvider error = %v, want a configuration error", err)
	}
	for _, s := range []string{`provider "evil" has no base_url`, w.projectFile + ":3", "not trusted", `"keel trust"`, w.root} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
	w.trust(t)
	c, _ = w.load(t)
	if p, err := c.ActiveProvider(); err != nil || p.BaseURL != "http://127.0.0.1:9/v1" {
		t.Errorf("trusted: %+v, %v", p, err)
	}
}

func TestTrustFollowsSymlinks(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.projectFile, lines(`yolo = true`))
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(w.root, link); err != nil {
		t.Fatal(err)
	}
	real := CanonicalDir(w.root)
	if dir, has := ProjectDir(filepath.Join(link, "sub")); dir != real || !has {
		t.Errorf("ProjectDir through the link = %s, %v; want %s", dir, has, real)
	}
	sha, err := ProjectConfigSHA256(link)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewTrustStore(w.env.get).Add(link, sha); err != nil {
		t.Fatal(err)
	}
	for _, cwd := range []string{w.cwd, filepath.Join(link, "sub")} {
		c, warns, err := Load(LoadOptions{Cwd: cwd, Getenv: w.env.get})
		if err != nil || !c.Yolo || len(warns) != 0 {
			t.Errorf("from %s: yolo = %v, warnings %v, err %v", cwd, c != nil && c.Yolo, warns, err)
		}
	}
}

func TestProjectDir(t *testing.T) {
	base := CanonicalDir(t.TempDir())
	mkdir(t, filepath.Join(base, ".git"))
	mkdir(t, filepath.Join(base, "a", "b"))
	if dir, has := ProjectDir(filepath.Join(base, "a", "b")); dir != base || has {
		t.Errorf("no project file: %s, %v; want the git root", dir, has)
	}
	writeFile(t, filepath.Join(base, "a", ".keel", "config.toml"), "")
	if dir, has := ProjectDir(filepath.Join(base, "a", "b")); dir != filepath.Join(base, "a") || !has {
		t.Errorf("nearest project file: %s, %v", dir, has)
	}
	nogit := CanonicalDir(t.TempDir())
	if dir, has := ProjectDir(nogit); dir != nogit || has {
		t.Errorf("no git root: %s, %v", dir, has)
	}
}
