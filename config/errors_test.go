package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadConfig asserts the exact message, line and column of every kind of
// bad configuration file. FILE stands for the file's path.
func TestBadConfig(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		want      string // full error text with FILE for the path
		line, col int    // position of the first error
	}{
		{"missing equals", lines(`max_turns = 3`, `reflection_cadence 3`),
			"FILE:2:20: expected '=' after key", 2, 20},
		{"unterminated string", lines(`model = "gpt`),
			"FILE:1:13: basic strings cannot have new lines", 1, 13},
		{"unterminated string at end of file", `model = "gpt`,
			"FILE:1:12: unterminated basic string", 1, 12},
		{"duplicate key", lines(`max_turns = 1`, `max_turns = 2`),
			"FILE:2:1: key max_turns is already defined", 2, 1},
		{"string for integer", lines(`# keel`, `reflection_cadence = "ten"`),
			`FILE:2:1: reflection_cadence must be an integer, not a string ("ten")`, 2, 1},
		{"boolean for integer, indented", lines(``, `  max_turns = true`),
			`FILE:2:3: max_turns must be an integer, not a boolean (true)`, 2, 3},
		{"float for integer", lines(`max_tool_calls = 1.5`),
			`FILE:1:1: max_tool_calls must be an integer, not a float (1.5)`, 1, 1},
		{"provider field", lines(`[providers.x]`, `base_url = "http://h/v1"`, `context_window = "big"`),
			`FILE:3:1: providers.x.context_window must be an integer, not a string ("big")`, 3, 1},
		{"dotted key points at its last part", lines(`discipline.repeat_warn = "x"`),
			`FILE:1:12: discipline.repeat_warn must be an integer, not a string ("x")`, 1, 12},
		{"inline table", lines(`plan = { confirm = 1 }`),
			`FILE:1:10: plan.confirm must be true or false, not an integer (1)`, 1, 10},
		{"section is not a table", lines(`discipline = 3`),
			`FILE:1:1: discipline must be a table, not an integer (3)`, 1, 1},
		{"array of tables", lines(`[[ui]]`, `mouse = true`),
			`FILE:1:3: ui must be a table, not an array`, 1, 3},
		{"list element", lines(`[permissions]`, `allow = ["edit_file", 3]`),
			`FILE:2:1: permissions.allow must be an array of strings, but element 2 is an integer (3)`, 2, 1},
		{"negative cadence", lines(`model = "m"`, `reflection_cadence = -1`),
			`FILE:2:1: reflection_cadence must be 0 or more, not -1 (tool calls between checkpoints; 0 disables them)`, 2, 1},
		{"negative discipline threshold", lines(`[discipline]`, `  stall_calls = -5`),
			`FILE:2:3: discipline.stall_calls must be 0 or more, not -5 (nudge after this many calls with no edit or plan progress; 0 disables)`, 2, 3},
		{"unknown default_provider", lines(`default_provider = "foo"`),
			`FILE:1:1: default_provider "foo" is not a configured provider; use one of "ollama", "openai" or add a [providers.foo] table`, 1, 1},
		{"bad duration", lines(`stream_idle_timeout = "soon"`),
			`FILE:1:1: stream_idle_timeout must be a duration such as "120s" or "2m", not "soon"`, 1, 1},
		{"duration as integer", lines(`stream_idle_timeout = 120`),
			`FILE:1:1: stream_idle_timeout must be a duration such as "120s" or "2m", not an integer (120)`, 1, 1},
		{"zero duration", lines(`stream_idle_timeout = "0s"`),
			`FILE:1:1: stream_idle_timeout must be a positive duration such as "120s", not 0s`, 1, 1},
		{"telemetry endpoint not a URL", lines(`[telemetry]`, `endpoint = "localhost:4318"`),
			`FILE:2:1: telemetry.endpoint must be an http or https URL such as "http://localhost:4318", not "localhost:4318"`, 2, 1},
		{"compact_at too large", lines(`compact_at = 1.5`),
			`FILE:1:1: compact_at must be greater than 0 and at most 1, not 1.5`, 1, 1},
		{"compact_at zero", lines(`compact_at = 0`),
			`FILE:1:1: compact_at must be greater than 0 and at most 1, not 0`, 1, 1},
		{"unknown fallback", lines(`[providers.openai]`, `fallback = ["olama"]`),
			`FILE:2:1: providers.openai.fallback names "olama", which is not another configured provider; use one of "ollama", "openai"`, 2, 1},
		{"provider without base_url", lines(`[providers.vllm]`, `model = "m"`),
			`FILE:1:12: provider "vllm" has no base_url; set it to the server's OpenAI-compatible endpoint, e.g. "http://localhost:8000/v1"`, 1, 12},
		{"bad base_url", lines(`[providers.ollama]`, `base_url = "localhost:11434"`),
			`FILE:2:1: providers.ollama.base_url must be an http or https URL, not "localhost:11434"`, 2, 1},
		{"bad theme", lines(`[ui]`, `theme = "pink"`),
			`FILE:2:1: ui.theme must be "auto", "dark" or "light", not "pink"`, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			writeFile(t, path, tt.doc)
			_, _, err := Load(LoadOptions{ConfigFile: path, Cwd: t.TempDir(), Getenv: fakeEnv{}.get})
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			if want := strings.ReplaceAll(tt.want, "FILE", path); err.Error() != want {
				t.Errorf("error\n got: %s\nwant: %s", err, want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Error("error does not match ErrInvalid")
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Path != path || ce.Line != tt.line || ce.Col != tt.col {
				t.Errorf("errors.As gives %+v, want %s:%d:%d", ce, path, tt.line, tt.col)
			}
		})
	}
}

func TestBadConfigCollectsAllTypeErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	writeFile(t, path, lines(`max_turns = true`, `[discipline]`, `reread = "x"`))
	_, _, err := Load(LoadOptions{ConfigFile: path, Cwd: t.TempDir(), Getenv: fakeEnv{}.get})
	want := path + `:1:1: max_turns must be an integer, not a boolean (true)` + "\n" +
		path + `:3:1: discipline.reread must be an integer, not a string ("x")`
	if err == nil || err.Error() != want {
		t.Errorf("error\n got: %v\nwant: %s", err, want)
	}
}

func TestBadEnvAndFlags(t *testing.T) {
	tests := []struct {
		name  string
		env   fakeEnv
		flags []Override
		want  string
	}{
		{"env not a number", fakeEnv{"KEEL_MAX_TURNS": "many"}, nil,
			`env KEEL_MAX_TURNS: max_turns must be an integer, not "many"`},
		{"env not a boolean", fakeEnv{"KEEL_YOLO": "maybe"}, nil,
			`env KEEL_YOLO: yolo must be true or false, not "maybe"`},
		{"env negative cadence", fakeEnv{"KEEL_REFLECTION_CADENCE": "-2"}, nil,
			`env KEEL_REFLECTION_CADENCE: reflection_cadence must be 0 or more, not -2 (tool calls between checkpoints; 0 disables them)`},
		{"env unknown provider", fakeEnv{"KEEL_PROVIDER": "nope"}, nil,
			`env KEEL_PROVIDER: default_provider "nope" is not a configured provider; use one of "ollama", "openai" or add a [providers.nope] table`},
		{"flag negative cadence", nil, []Override{{"reflection-cadence", "-1"}},
			`flag --reflection-cadence: reflection_cadence must be 0 or more, not -1 (tool calls between checkpoints; 0 disables them)`},
		{"flag bad duration", nil, []Override{{"stream-idle-timeout", "10"}},
			`flag --stream-idle-timeout: stream_idle_timeout must be a duration such as "120s" or "2m", not "10"`},
		{"flag unknown provider", nil, []Override{{"provider", "x"}},
			`flag --provider: default_provider "x" is not a configured provider; use one of "ollama", "openai" or add a [providers.x] table`},
		{"env base url", fakeEnv{"OPENAI_BASE_URL": "api.openai.com"}, nil,
			`env OPENAI_BASE_URL: providers.openai.base_url must be an http or https URL, not "api.openai.com"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			for k, v := range tt.env {
				w.env[k] = v
			}
			_, _, err := Load(w.opts(tt.flags...))
			if err == nil || err.Error() != tt.want {
				t.Errorf("error\n got: %v\nwant: %s", err, tt.want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Error("error does not match ErrInvalid")
			}
		})
	}
}

func TestUnknownKeyWarnings(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string // Warning.String() with FILE for the path
	}{
		{"typo at top level", lines(`model = "m"`, `reflection_cadnce = 3`),
			[]string{`FILE:2:1: unknown key "reflection_cadnce" is ignored (did you mean "reflection_cadence"?)`}},
		{"typo in a known table", lines(`[discipline]`, `reread = 2`, `  repeet_warn = 3`),
			[]string{`FILE:3:3: unknown key "discipline.repeet_warn" is ignored (did you mean "discipline.repeat_warn"?)`}},
		{"typo in a provider table", lines(`[providers.openai]`, `modle = "x"`),
			[]string{`FILE:2:1: unknown key "providers.openai.modle" is ignored (did you mean "providers.openai.model"?)`}},
		{"right key, wrong table", lines(`repeat_warn = 3`),
			[]string{`FILE:1:1: unknown key "repeat_warn" is ignored (did you mean "discipline.repeat_warn"?)`}},
		{"unknown table, no close match", lines(`[analytics]`, `on = true`),
			[]string{`FILE:1:2: unknown key "analytics" is ignored`}},
		{"several, in document order", lines(`zzz = 1`, `[ui]`, `mouze = true`, `colour = "x"`),
			[]string{
				`FILE:1:1: unknown key "zzz" is ignored`,
				`FILE:3:1: unknown key "ui.mouze" is ignored (did you mean "ui.mouse"?)`,
				`FILE:4:1: unknown key "ui.colour" is ignored`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			writeFile(t, path, tt.doc)
			_, warns, err := Load(LoadOptions{ConfigFile: path, Cwd: t.TempDir(), Getenv: fakeEnv{}.get})
			if err != nil {
				t.Fatalf("unknown keys must not be errors: %v", err)
			}
			if len(warns) != len(tt.want) {
				t.Fatalf("got %d warnings %v, want %d", len(warns), warns, len(tt.want))
			}
			for i, w := range warns {
				if want := strings.ReplaceAll(tt.want[i], "FILE", path); w.String() != want {
					t.Errorf("warning %d\n got: %s\nwant: %s", i, w, want)
				}
			}
		})
	}
}

func TestSuggestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3},
		{"reflection_cadnce", "reflection_cadence", 1}, {"repeet_warn", "repeat_warn", 1},
		{"modle", "model", 1}, {"ab", "ba", 1}, {"abc", "ca", 3},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
