package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// templateHeader opens the file written by `keel config init`.
const templateHeader = `# keel configuration (written by "keel config init").
#
# Every setting is commented out and shows its default: uncomment a line to
# change it. Precedence, lowest first: this file, the project's
# .keel/config.toml (from the working directory up to the git root), the
# environment (KEEL_MODEL, KEEL_PROVIDER, KEEL_REFLECTION_CADENCE,
# KEEL_MAX_TURNS, KEEL_MAX_TOOL_CALLS, KEEL_YOLO, OPENAI_BASE_URL), then flags.
# A project's file may not set yolo, permissions.allow, permissions.env_passthrough,
# sandbox.mode, sandbox.writable, sandbox.readable or a provider's base_url, api_key_env and api_key
# until you run "keel trust" in it; this file and --config FILE may.
# "keel config" shows the values in effect and where each came from.
`

// templateProviders explains the provider tables.
const templateProviders = `
# Providers: any OpenAI-compatible server (OpenAI, Ollama, LM Studio, vLLM,
# OpenRouter...). Add [providers.NAME] with at least base_url; a table named
# like a built-in (openai, ollama) changes only the fields it sets.
`

// InitTemplate returns a commented configuration listing every key with its
// default and a one-line explanation. It parses to the defaults, and so does
// the same text with every setting uncommented.
func InitTemplate() string {
	d := Defaults()
	var b strings.Builder
	b.WriteString(templateHeader)
	section := ""
	for _, f := range allFields() {
		if s, _, ok := strings.Cut(f.key, "."); ok && s != section {
			section = s
			fmt.Fprintf(&b, "\n[%s]\n", s)
		}
		name := f.key[strings.LastIndexByte(f.key, '.')+1:]
		fmt.Fprintf(&b, "\n# %s\n# %s = %s\n", f.doc, name, formatValue(f.ptr(d)))
	}
	b.WriteString(templateProviders)
	for _, name := range []string{"openai", "ollama"} {
		p := d.Providers[name]
		fmt.Fprintf(&b, "\n# [providers.%s]\n", name)
		for _, f := range providerFields {
			fmt.Fprintf(&b, "# %s = %s  # %s\n", f.key, formatValue(f.ptr(&p)), f.doc)
		}
	}
	return b.String()
}

// UserConfigPath is the user configuration file:
// $XDG_CONFIG_HOME/keel/config.toml, else ~/.config/keel/config.toml; ""
// when neither variable is set. A nil getenv means os.Getenv.
func UserConfigPath(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	return userConfigPath(getenv)
}

// WriteInit writes InitTemplate to path, creating its directory. It never
// overwrites: an existing file is an error. The file is private (0600)
// because it may come to hold an api_key.
func WriteInit(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create the directory for %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return &Error{Path: path, Msg: "the file already exists and keel config init never overwrites; edit it or remove it first"}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.WriteString(InitTemplate()); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
