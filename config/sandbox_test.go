package config

import (
	"errors"
	"reflect"
	"slices"
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
			return c.Sandbox.Mode == SandboxAuto && c.Sandbox.Network && slices.Contains(c.Sandbox.Writable, "~/go/pkg/mod") &&
				!slices.Contains(c.Sandbox.Writable, "~/go") && slices.Contains(c.Sandbox.Readable, "~/.rustup") &&
				c.Permissions.EnvPassthrough == nil
		}},
		{"on", lines(`[sandbox]`, `mode = "on"`), "", func(w *world, c *Config) bool { return c.Sandbox.Mode == SandboxOn }},
		{"off", lines(`[sandbox]`, `mode = "off"`), "", func(w *world, c *Config) bool { return c.Sandbox.Mode == SandboxOff }},
		{"no network", lines(`[sandbox]`, `network = false`), "", func(w *world, c *Config) bool { return !c.Sandbox.Network }},
		{"bad value", lines(`model = "m"`, `[sandbox]`, `mode = "yes"`), `FILE:3:1: sandbox.mode must be "auto", "on" or "off", not "yes"`, nil},
		{"the old key says where it went", lines(`sandbox = "off"`), `FILE:1:1: sandbox must be a table`, nil},
		{"writable keeps ~/ for the sandbox to expand", lines(`[sandbox]`, `writable = ["~/cache", "/srv/x"]`), "", func(w *world, c *Config) bool {
			return reflect.DeepEqual(c.Sandbox.Writable, []string{"~/cache", "/srv/x"})
		}},
		{"writable must be absolute", lines(`[sandbox]`, `writable = ["build"]`), `FILE:2:1: sandbox.writable must list absolute paths`, nil},
		{"readable must be absolute", lines(`[sandbox]`, `readable = ["build"]`), `FILE:2:1: sandbox.readable must list absolute paths`, nil},
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
	for _, s := range []string{"# mode = \"auto\"", "# writable = [\"~/.cache\"", "# network = true", "# env_passthrough = []", "keel trust"} {
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
