package config

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSandboxKeys(t *testing.T) {
	tests := []struct {
		name, doc string
		err       string // "" for no error; FILE stands for the path
		check     func(*world, *Config) bool
	}{
		{"defaults", "", "", func(w *world, c *Config) bool {
			return c.Sandbox == SandboxAuto && c.SandboxWritable == nil && c.Permissions.EnvPassthrough == nil
		}},
		{"on", lines(`sandbox = "on"`), "", func(w *world, c *Config) bool { return c.Sandbox == SandboxOn }},
		{"off", lines(`sandbox = "off"`), "", func(w *world, c *Config) bool { return c.Sandbox == SandboxOff }},
		{"bad value", lines(`model = "m"`, `sandbox = "yes"`), `FILE:2:1: sandbox must be "auto", "on" or "off", not "yes"`, nil},
		{"writable expands ~/", lines(`sandbox_writable = ["~/cache", "/srv/x"]`), "", func(w *world, c *Config) bool {
			return reflect.DeepEqual(c.SandboxWritable, []string{filepath.Join(w.home, "cache"), "/srv/x"})
		}},
		{"writable must be absolute", lines(`sandbox_writable = ["build"]`), `FILE:1:1: sandbox_writable must list absolute directories`, nil},
		{"env passthrough", lines(`[permissions]`, `env_passthrough = ["NPM_TOKEN", "GH_TOKEN"]`), "", func(w *world, c *Config) bool {
			return reflect.DeepEqual(c.Permissions.EnvPassthrough, []string{"NPM_TOKEN", "GH_TOKEN"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			writeFile(t, w.userFile, tt.doc)
			c, _, err := Load(w.opts())
			if tt.err != "" {
				want := strings.ReplaceAll(tt.err, "FILE", w.userFile)
				if !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), want) {
					t.Errorf("err = %v, want %s", err, want)
				}
				return
			}
			if err != nil || !tt.check(w, c) {
				t.Errorf("err %v, config %+v", err, values(c))
			}
		})
	}
}

func TestSandboxKeysInTemplate(t *testing.T) {
	tmpl := InitTemplate()
	for _, s := range []string{"# sandbox = \"auto\"", "# sandbox_writable = []", "# env_passthrough = []", "keel trust"} {
		if !strings.Contains(tmpl, s) {
			t.Errorf("InitTemplate lacks %q", s)
		}
	}
}

func TestSecretEnvName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"OPENAI_API_KEY", true},
		{"openai_api_key", true},
		{"AWS_SECRET_ACCESS_KEY", true},
		{"GITHUB_TOKEN", true},
		{"NPM_TOKEN", true},
		{"CLIENT_SECRET", true},
		{"DB_PASSWORD", true},
		{"PGPASSWORD", true},
		{"password_file", true},
		{"MY_KEY", true},
		{"KEY", false}, // no underscore before it
		{"KEYBOARD", false},
		{"MONKEY", false},
		{"MONKEY_PATH", false},
		{"KEY_PATH", false},
		{"TOKENIZERS_PARALLELISM", false},
		{"SECRETS_DIR", false},
		{"HOME", false},
		{"PATH", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SecretEnvName(tt.name); got != tt.want {
				t.Errorf("SecretEnvName(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}
