package config

import (
	"github.com/keel-dev/keel/discipline"

	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestActiveProviderModel(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		env   fakeEnv
		flags []Override
		want  Provider
	}{
		{"provider's own model", lines(`[providers.openai]`, `model = "p"`), nil, nil,
			Provider{Name: "openai", Model: "p", BaseURL: DefaultOpenAIBaseURL}},
		{"top-level model beats the provider's", lines(`model = "top"`, `[providers.openai]`, `model = "p"`), nil, nil,
			Provider{Name: "openai", Model: "top", BaseURL: DefaultOpenAIBaseURL}},
		{"--model beats both", lines(`model = "top"`, `[providers.openai]`, `model = "p"`), nil, []Override{{"model", "flag"}},
			Provider{Name: "openai", Model: "flag", BaseURL: DefaultOpenAIBaseURL}},
		{"--provider picks another", lines(`[providers.ollama]`, `model = "qwen"`), fakeEnv{"KEEL_PROVIDER": "openai"},
			[]Override{{"provider", "ollama"}},
			Provider{Name: "ollama", Model: "qwen", BaseURL: "http://localhost:11434/v1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			writeFile(t, w.userFile, tt.file)
			for k, v := range tt.env {
				w.env[k] = v
			}
			c, _ := w.load(t, tt.flags...)
			p, err := c.ActiveProvider()
			if err != nil {
				t.Fatal(err)
			}
			if p.Name != tt.want.Name || p.Model != tt.want.Model || p.BaseURL != tt.want.BaseURL {
				t.Errorf("ActiveProvider() = %+v, want %+v", p, tt.want)
			}
		})
	}
}

func TestProviderLookup(t *testing.T) {
	c := Defaults()
	c.Providers["x"] = Provider{Name: "x", BaseURL: "http://x/v1", Fallback: []string{"openai"}}
	p, err := c.Provider("x")
	if err != nil {
		t.Fatal(err)
	}
	p.Fallback[0] = "changed"
	if c.Providers["x"].Fallback[0] != "openai" {
		t.Error("Provider must return a copy of Fallback")
	}
	_, err = c.Provider("nope")
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `provider "nope" is not configured`) {
		t.Errorf("unknown provider: %v", err)
	}
	if got := c.ProviderNames(); !reflect.DeepEqual(got, []string{"ollama", "openai", "x"}) {
		t.Errorf("ProviderNames() = %v", got)
	}
}

func TestAPIKey(t *testing.T) {
	env := fakeEnv{"OPENAI_API_KEY": "from-env", "OTHER": "other"}.get
	tests := []struct {
		name    string
		p       Provider
		want    string
		wantErr string
	}{
		{"api_key wins", Provider{Name: "openai", APIKey: "inline", APIKeyEnv: "OPENAI_API_KEY"}, "inline", ""},
		{"from the named variable", Provider{Name: "openai", APIKeyEnv: "OPENAI_API_KEY"}, "from-env", ""},
		{"no key needed", Provider{Name: "ollama"}, "", ""},
		{"named variable unset", Provider{Name: "deepseek", APIKeyEnv: "DEEPSEEK_API_KEY"}, "",
			`provider "deepseek" needs an API key: set the DEEPSEEK_API_KEY environment variable or api_key in [providers.deepseek]: no API key`},
	}
	c := Defaults()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.APIKey(tt.p, env)
			if got != tt.want {
				t.Errorf("key = %q, want %q", got, tt.want)
			}
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr || !errors.Is(err, ErrNoAPIKey)) {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestSchemaCoversStruct keeps the schema and the struct tags in step: a
// field added to Config without a schema entry would never be loaded.
func TestSchemaCoversStruct(t *testing.T) {
	keys := map[string]bool{}
	for _, f := range allFields() {
		keys[f.key] = true
	}
	var walk func(prefix string, typ reflect.Type)
	walk = func(prefix string, typ reflect.Type) {
		for i := range typ.NumField() {
			sf := typ.Field(i)
			tag := sf.Tag.Get("toml")
			if !sf.IsExported() || tag == "" || tag == "-" || tag == "providers" || tag == "mcp" { // tables of tables: their own schemas
				continue
			}
			if tag == "discipline" { // the guards' settings: one key each
				for _, s := range discipline.Settings() {
					delete(keys, "discipline."+s.Key)
				}
				continue
			}
			if sf.Type.Kind() == reflect.Struct {
				walk(prefix+tag+".", sf.Type)
				continue
			}
			if !keys[prefix+tag] {
				t.Errorf("Config field %s (%s%s) has no schema entry", sf.Name, prefix, tag)
			}
			delete(keys, prefix+tag)
		}
	}
	walk("", reflect.TypeFor[Config]())
	for k := range keys {
		t.Errorf("schema key %s has no Config field", k)
	}
	pt := reflect.TypeFor[Provider]()
	if n := pt.NumField() - 1; n != len(providerFields) { // Name is not a key
		t.Errorf("Provider has %d keys, schema has %d", n, len(providerFields))
	}
	for _, f := range providerFields {
		found := false
		for i := range pt.NumField() {
			found = found || pt.Field(i).Tag.Get("toml") == f.key
		}
		if !found {
			t.Errorf("provider schema key %s has no Provider field", f.key)
		}
	}
}

func TestFlagKey(t *testing.T) {
	tests := []struct {
		flag, key string
		ok        bool
	}{
		{"reflection-cadence", "reflection_cadence", true}, {"max-turns", "max_turns", true},
		{"provider", "default_provider", true}, {"confirm-plan", "plan.confirm", true},
		{"datalog", "datalog.path", true}, {"yolo", "yolo", true},
		{"prompt", "", false}, {"config", "", false}, {"reread", "", false},
	}
	for _, tt := range tests {
		if key, ok := FlagKey(tt.flag); key != tt.key || ok != tt.ok {
			t.Errorf("FlagKey(%q) = %q, %v", tt.flag, key, ok)
		}
	}
}
