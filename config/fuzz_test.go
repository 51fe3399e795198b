package config

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
)

// FuzzLoad feeds arbitrary documents to Load through --config. Load must
// never panic; every error must point into the file; a config that loads
// must render to TOML that loads back to the same settings.
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{
		"", "reflection_cadence = 3\n", "reflection_cadence 3\n", `model = "gpt`,
		"max_turns = true\n", "[providers.x]\ncontext_window = \"big\"\n",
		"[discipline]\nrepeet_warn = 3\n", "default_provider = \"nope\"\n",
		"stream_idle_timeout = \"soon\"\n", "[[ui]]\nmouse = 1\n", "plan = { confirm = 1 }\n",
		"[providers.\"a.b\"]\nbase_url = \"http://h/v1\"\nfallback = [\"openai\", 3]\n",
		"compact_at = nan\n[providers.openai]\ninput_price_per_mtok = inf\n",
		"a.b.c = 1\n[a]\n", "x = 1979-05-27T07:32:00Z\n", InitTemplate(), uncomment(InitTemplate()),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		path := filepath.Join(t.TempDir(), "config.toml")
		writeFile(t, path, string(doc))
		opts := LoadOptions{ConfigFile: path, Cwd: t.TempDir(), Getenv: fakeEnv{}.get}
		c, _, err := Load(opts)
		if err != nil {
			checkPositioned(t, err, path)
			return
		}
		out := Render(c)
		var m map[string]any
		if err := toml.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("Render output is not TOML: %v\n%s", err, out)
		}
		writeFile(t, path, out)
		back, _, err := Load(opts)
		if err != nil {
			t.Fatalf("rendered config does not load: %v\n%s", err, out)
		}
		if got, want := withoutKeys(back), withoutKeys(c); !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip differs\n got: %+v\nwant: %+v", got, want)
		}
	})
}

// checkPositioned fails unless every error in err's tree is an *Error with
// a position in path.
func checkPositioned(t *testing.T, err error, path string) {
	t.Helper()
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			checkPositioned(t, e, path)
		}
		return
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.Path != path || ce.Line < 1 || ce.Col < 1 {
		t.Fatalf("error without a position in %s: %#v (%v)", path, err, err)
	}
}

// withoutKeys drops API keys, which Render masks on purpose.
func withoutKeys(c *Config) Config {
	v := values(c)
	v.Providers = map[string]Provider{}
	for n, p := range c.Providers {
		p.APIKey = ""
		v.Providers[n] = p
	}
	return v
}
