package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
)

func TestRenderSourcesAndSecrets(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.userFile, lines(`max_turns = 50`, `[providers.openai]`, `api_key = "sk-secret-value"`))
	w.env["KEEL_MODEL"] = "env-model"
	c, _ := w.load(t, Override{"reflection-cadence", "3"})
	out := Render(c)

	for _, want := range []string{
		"reflection_cadence = 3  # flag --reflection-cadence\n",
		"max_turns = 50  # " + w.userFile + ":1\n",
		`model = "env-model"  # env KEEL_MODEL` + "\n",
		"max_tool_calls = 500  # default\n",
		`stream_idle_timeout = "120s"  # default` + "\n",
		"compact_at = 0.8  # default\n",
		`api_key = "***"  # ` + w.userFile + ":3\n",
		"[providers.openai]\n",
		"# read " + w.userFile + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Render lacks %q\n%s", want, out)
		}
	}
	if strings.Contains(out, "sk-secret-value") {
		t.Errorf("Render shows the API key in clear:\n%s", out)
	}
	var m map[string]any
	if err := toml.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("Render output is not valid TOML: %v\n%s", err, out)
	}
}

// TestRenderRoundTrip loads Render's output as a config file and expects the
// same settings back (the API key aside, which Render masks).
func TestRenderRoundTrip(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.userFile, lines(
		`compact_at = 1`, `token_budget = 9000`, `stream_idle_timeout = "1m30.5s"`, `yolo = true`,
		`[permissions]`, `allow = ["run_command:go test *", "quote \" and \\ and tab\t"]`,
		`[discipline]`, `verify_patterns = []`,
		`[datalog]`, `path = "/tmp/ké el.db"`,
		`[providers."my.host"]`, `base_url = "https://h/v1"`, `input_price_per_mtok = 2.5`, `fallback = ["ollama"]`,
	))
	c, _ := w.load(t)
	path := filepath.Join(t.TempDir(), "rendered.toml")
	writeFile(t, path, Render(c))
	back, warns, err := Load(LoadOptions{ConfigFile: path, Cwd: w.cwd, Getenv: w.env.get})
	if err != nil || len(warns) != 0 {
		t.Fatalf("rendered config does not load back: %v %v\n%s", err, warns, Render(c))
	}
	if got, want := values(back), values(c); !reflect.DeepEqual(got, want) {
		t.Errorf("round trip differs\n got: %+v\nwant: %+v", got, want)
	}
}

func TestInitTemplateParsesToDefaults(t *testing.T) {
	tmpl := InitTemplate()
	uncommented := uncomment(tmpl)
	if uncommented == tmpl {
		t.Fatal("uncomment changed nothing")
	}
	for name, doc := range map[string]string{"as written": tmpl, "every setting uncommented": uncommented} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			writeFile(t, path, doc)
			c, warns, err := Load(LoadOptions{ConfigFile: path, Cwd: t.TempDir(), Getenv: fakeEnv{}.get})
			if err != nil || len(warns) != 0 {
				t.Fatalf("template does not load cleanly: %v %v\n%s", err, warns, doc)
			}
			if got, want := values(c), values(Defaults()); !reflect.DeepEqual(got, want) {
				t.Errorf("template gives\n%+v\nwant defaults\n%+v", got, want)
			}
		})
	}
	for _, f := range allFields() {
		name := f.key[strings.LastIndexByte(f.key, '.')+1:]
		if !strings.Contains(tmpl, "\n# "+name+" = ") {
			t.Errorf("template lacks %s", f.key)
		}
	}
	for _, f := range providerFields {
		if !strings.Contains(tmpl, "\n# "+f.key+" = ") {
			t.Errorf("template lacks providers.NAME.%s", f.key)
		}
	}
}

// uncomment turns "# key = value" and "# [table]" lines into settings.
func uncomment(doc string) string {
	ls := strings.Split(doc, "\n")
	for i, l := range ls {
		rest, ok := strings.CutPrefix(l, "# ")
		if !ok {
			continue
		}
		key, _, isKV := strings.Cut(rest, " = ")
		if strings.HasPrefix(rest, "[") || (isKV && key != "" && strings.Trim(key, "abcdefghijklmnopqrstuvwxyz_") == "") {
			ls[i] = rest
		}
	}
	return strings.Join(ls, "\n")
}

func TestWriteInit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keel", "config.toml")
	if err := WriteInit(path); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != InitTemplate() {
		t.Fatalf("WriteInit wrote %q, %v", got, err)
	}
	writeFile(t, path, "max_turns = 1\n")
	err = WriteInit(path)
	var ce *Error
	if !errors.As(err, &ce) || ce.Path != path {
		t.Errorf("WriteInit over an existing file: err = %v, want an *Error naming the file", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "max_turns = 1\n" {
		t.Errorf("WriteInit overwrote the file: %q", got)
	}
}

func TestFormatHelpers(t *testing.T) {
	tests := []struct{ got, want string }{
		{formatFloat(1), "1.0"}, {formatFloat(0.8), "0.8"}, {formatFloat(1e21), "1e+21"},
		{tomlString("a\"b\\c\nd\x01"), `"a\"b\\c\nd\u0001"`},
		{tomlKey("openai"), "openai"}, {tomlKey("my.host"), `"my.host"`}, {tomlKey(""), `""`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %s, want %s", tt.got, tt.want)
		}
	}
}
