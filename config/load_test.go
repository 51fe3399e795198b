package config

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// layers is what each precedence level sets in one test case.
type layers struct {
	user, project string
	env           fakeEnv
	flags         []Override
	trusted       bool // the user trusts the project
}

func TestPrecedence(t *testing.T) {
	type check struct {
		key  string
		get  func(*Config) any
		want any
		src  string // "user", "project" or a literal Source string
	}
	cadence := func(c *Config) any { return c.ReflectionCadence }
	turns := func(c *Config) any { return c.MaxTurns }
	model := func(c *Config) any { return c.Model }
	yolo := func(c *Config) any { return c.Yolo }
	prov := func(c *Config) any { return c.DefaultProvider }
	baseURL := func(c *Config) any { return c.Providers["openai"].BaseURL }
	idle := func(c *Config) any { return c.StreamIdleTimeout }

	tests := []struct {
		name string
		in   layers
		want []check
	}{
		{"defaults", layers{}, []check{
			{"reflection_cadence", cadence, 10, "default"},
			{"max_turns", turns, 100, "default"},
			{"model", model, "", "default"},
			{"yolo", yolo, false, "default"},
			{"default_provider", prov, "openai", "default"},
			{"providers.openai.base_url", baseURL, DefaultOpenAIBaseURL, "default"},
			{"stream_idle_timeout", idle, 120 * time.Second, "default"},
		}},
		{"user file beats defaults", layers{
			user: lines(`reflection_cadence = 5`, `max_turns = 50`, `model = "u"`, `stream_idle_timeout = "30s"`,
				`[providers.openai]`, `base_url = "http://user/v1"`),
		}, []check{
			{"reflection_cadence", cadence, 5, "user:1"},
			{"max_turns", turns, 50, "user:2"},
			{"model", model, "u", "user:3"},
			{"stream_idle_timeout", idle, 30 * time.Second, "user:4"},
			{"providers.openai.base_url", baseURL, "http://user/v1", "user:6"},
		}},
		{"project file beats user file", layers{
			trusted: true,
			user:    lines(`reflection_cadence = 5`, `max_turns = 50`, `model = "u"`),
			project: lines(`model = "p"`, `reflection_cadence = 7`, `[providers.openai]`, `base_url = "http://proj/v1"`),
		}, []check{
			{"reflection_cadence", cadence, 7, "project:2"},
			{"max_turns", turns, 50, "user:2"},
			{"model", model, "p", "project:1"},
			{"providers.openai.base_url", baseURL, "http://proj/v1", "project:4"},
		}},
		{"environment beats files", layers{
			trusted: true,
			user:    lines(`reflection_cadence = 5`, `yolo = false`, `default_provider = "openai"`),
			project: lines(`reflection_cadence = 7`, `max_turns = 9`, `[providers.openai]`, `base_url = "http://proj/v1"`),
			env: fakeEnv{"KEEL_REFLECTION_CADENCE": "8", "KEEL_MAX_TURNS": "20", "KEEL_MODEL": "e",
				"KEEL_YOLO": "1", "KEEL_PROVIDER": "ollama", "OPENAI_BASE_URL": "http://env/v1"},
		}, []check{
			{"reflection_cadence", cadence, 8, "env KEEL_REFLECTION_CADENCE"},
			{"max_turns", turns, 20, "env KEEL_MAX_TURNS"},
			{"model", model, "e", "env KEEL_MODEL"},
			{"yolo", yolo, true, "env KEEL_YOLO"},
			{"default_provider", prov, "ollama", "env KEEL_PROVIDER"},
			{"providers.openai.base_url", baseURL, "http://env/v1", "env OPENAI_BASE_URL"},
		}},
		{"flags beat everything", layers{
			user:    lines(`reflection_cadence = 5`),
			project: lines(`reflection_cadence = 7`),
			env:     fakeEnv{"KEEL_REFLECTION_CADENCE": "8", "KEEL_MODEL": "e", "KEEL_YOLO": "false", "KEEL_PROVIDER": "openai"},
			flags: []Override{{"reflection-cadence", "3"}, {"model", "f"}, {"yolo", "true"},
				{"provider", "ollama"}, {"max-turns", "0"}, {"prompt", "ignored"}, {"--stream-idle-timeout", "2m"}},
		}, []check{
			{"reflection_cadence", cadence, 3, "flag --reflection-cadence"},
			{"model", model, "f", "flag --model"},
			{"yolo", yolo, true, "flag --yolo"},
			{"default_provider", prov, "ollama", "flag --provider"},
			{"max_turns", turns, 0, "flag --max-turns"},
			{"stream_idle_timeout", idle, 2 * time.Minute, "flag --stream-idle-timeout"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			if tt.in.user != "" {
				writeFile(t, w.userFile, tt.in.user)
			}
			if tt.in.project != "" {
				writeFile(t, w.projectFile, tt.in.project)
			}
			for k, v := range tt.in.env {
				w.env[k] = v
			}
			if tt.in.trusted {
				w.trust(t)
			}
			c, warns := w.load(t, tt.in.flags...)
			if len(warns) != 0 {
				t.Errorf("unexpected warnings: %v", warns)
			}
			for _, ch := range tt.want {
				if got := ch.get(c); !reflect.DeepEqual(got, ch.want) {
					t.Errorf("%s = %v, want %v", ch.key, got, ch.want)
				}
				want := ch.src
				if f, line, ok := cutFileSource(ch.src, w); ok {
					want = f + ":" + line
				}
				if got := c.Source(ch.key).String(); got != want {
					t.Errorf("source of %s = %q, want %q", ch.key, got, want)
				}
			}
		})
	}
}

// cutFileSource turns "user:3" or "project:3" into the world's file path.
func cutFileSource(src string, w *world) (file, line string, ok bool) {
	for prefix, f := range map[string]string{"user:": w.userFile, "project:": w.projectFile} {
		if len(src) > len(prefix) && src[:len(prefix)] == prefix {
			return f, src[len(prefix):], true
		}
	}
	return "", "", false
}

func TestUserFileXDG(t *testing.T) {
	w := newWorld(t)
	xdg := t.TempDir()
	w.env["XDG_CONFIG_HOME"] = xdg
	writeFile(t, w.userFile, lines(`max_turns = 1`)) // ~/.config is ignored when XDG is set
	writeFile(t, filepath.Join(xdg, "keel", "config.toml"), lines(`max_turns = 2`))
	c, _ := w.load(t)
	if c.MaxTurns != 2 {
		t.Errorf("max_turns = %d, want 2 from $XDG_CONFIG_HOME", c.MaxTurns)
	}
	if got := SearchPaths(w.opts())[0]; got != filepath.Join(xdg, "keel", "config.toml") {
		t.Errorf("SearchPaths()[0] = %s", got)
	}
}

func TestProjectFileSearch(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // relative to a temp dir -> max_turns value
		git   string            // directory holding .git, relative; "" for none
		cwd   string
		want  int
	}{
		{"nearest file wins", map[string]string{".keel": "1", "a/.keel": "2"}, ".", "a/b", 2},
		{"found at the git root", map[string]string{".keel": "1"}, ".", "a/b", 1},
		{"not above the git root", map[string]string{".keel": "1"}, "a", "a/b", 100},
		{"no git root: working directory only", map[string]string{".keel": "1"}, "", "a", 100},
		{"no git root: working directory itself", map[string]string{"a/.keel": "3"}, "", "a", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			if tt.git != "" {
				mkdir(t, filepath.Join(base, tt.git, ".git"))
			}
			for dir, n := range tt.files {
				writeFile(t, filepath.Join(base, dir, "config.toml"), "max_turns = "+n+"\n")
			}
			cwd := filepath.Join(base, tt.cwd)
			mkdir(t, cwd)
			c, _, err := Load(LoadOptions{Cwd: cwd, Getenv: fakeEnv{"HOME": t.TempDir()}.get})
			if err != nil {
				t.Fatal(err)
			}
			if c.MaxTurns != tt.want {
				t.Errorf("max_turns = %d, want %d", c.MaxTurns, tt.want)
			}
		})
	}
}

func TestConfigFileOnly(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.userFile, lines(`max_turns = 1`, `model = "user"`))
	writeFile(t, w.projectFile, lines(`max_turns = 2`))
	only := filepath.Join(t.TempDir(), "only.toml")
	writeFile(t, only, lines(`reflection_cadence = 4`))
	w.env["KEEL_MODEL"] = "env"

	opts := w.opts(Override{"max-tool-calls", "7"})
	opts.ConfigFile = only
	c, _, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxTurns != 100 || c.ReflectionCadence != 4 {
		t.Errorf("max_turns=%d reflection_cadence=%d, want 100 and 4 (only --config is read)", c.MaxTurns, c.ReflectionCadence)
	}
	if c.Model != "env" || c.MaxToolCalls != 7 {
		t.Errorf("env and flags must still apply over --config: model=%q max_tool_calls=%d", c.Model, c.MaxToolCalls)
	}
	if got := SearchPaths(opts); !reflect.DeepEqual(got, []string{only}) {
		t.Errorf("SearchPaths() = %v", got)
	}

	opts.ConfigFile = filepath.Join(t.TempDir(), "missing.toml")
	_, _, err = Load(opts)
	if !errors.Is(err, ErrInvalid) || err.Error() != opts.ConfigFile+": cannot read the configuration file: no such file or directory" {
		t.Errorf("missing --config file: err = %v", err)
	}
}

func TestSearchPaths(t *testing.T) {
	w := newWorld(t)
	want := []string{
		w.userFile,
		filepath.Join(w.root, ".keel", "config.toml"),
		filepath.Join(w.cwd, ".keel", "config.toml"),
	}
	if got := SearchPaths(w.opts()); !reflect.DeepEqual(got, want) {
		t.Errorf("SearchPaths() = %v, want %v", got, want)
	}
}

func TestProvidersMerge(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.userFile, lines(
		`[providers.openai]`, `model = "gpt-x"`,
		`[providers.local]`, `base_url = "http://127.0.0.1:8000/v1"`, `fallback = ["ollama", "openai"]`))
	c, _ := w.load(t)
	o := c.Providers["openai"]
	if o.BaseURL != DefaultOpenAIBaseURL || o.APIKeyEnv != "OPENAI_API_KEY" || o.Model != "gpt-x" {
		t.Errorf("a user table must override only the built-in fields it sets: %+v", o)
	}
	l := c.Providers["local"]
	if l.Name != "local" || l.ContextWindow != DefaultContextWindow || len(l.Fallback) != 2 {
		t.Errorf("new provider: %+v", l)
	}
}

func TestNoHome(t *testing.T) {
	cwd := t.TempDir()
	c, _, err := Load(LoadOptions{Cwd: cwd, Getenv: fakeEnv{}.get})
	if err != nil {
		t.Fatal(err)
	}
	if c.DatalogPath() != "" {
		t.Errorf("without HOME: DatalogPath %q", c.DatalogPath())
	}
	want := []string{filepath.Join(cwd, ".keel", "config.toml")}
	if got := SearchPaths(LoadOptions{Cwd: cwd, Getenv: fakeEnv{}.get}); !reflect.DeepEqual(got, want) {
		t.Errorf("SearchPaths without HOME = %v, want %v", got, want)
	}
}

func TestDatalogPath(t *testing.T) {
	w := newWorld(t)
	c, _ := w.load(t)
	if got, want := c.DatalogPath(), filepath.Join(w.home, ".local", "share", "keel", "keel.db"); got != want {
		t.Errorf("default DatalogPath = %s, want %s", got, want)
	}
	w.env["XDG_DATA_HOME"] = "/data"
	c, _ = w.load(t)
	if got := c.DatalogPath(); got != "/data/keel/keel.db" {
		t.Errorf("XDG DatalogPath = %s", got)
	}
	c, _ = w.load(t, Override{"datalog", "~/x.db"})
	if got := c.DatalogPath(); got != filepath.Join(w.home, "x.db") {
		t.Errorf("--datalog ~/x.db gives %s", got)
	}
}
