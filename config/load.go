package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LoadOptions says where Load looks. Zero values fall back to the process:
// Cwd to os.Getwd, Getenv to os.Getenv; tests set both. Getenv also finds
// the user's files: config.toml and trusted.toml (see NewTrustStore).
type LoadOptions struct {
	ConfigFile string              // --config: read only this file (it must exist)
	Cwd        string              // start of the project file search
	Getenv     func(string) string // environment lookup
	Flags      []Override          // flags the user set, highest precedence
}

// withDefaults fills unset options from the process.
func (o LoadOptions) withDefaults() LoadOptions {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Cwd == "" {
		o.Cwd, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(o.Cwd); err == nil {
		o.Cwd = abs
	}
	return o
}

// Load builds the effective configuration: defaults < user file < project
// file < environment < flags, or defaults < ConfigFile < environment < flags
// when ConfigFile is set. Unknown keys are warnings; bad values are errors
// that match ErrInvalid and carry their file:line:col when they came from a
// file. A missing user or project file is not an error. The project file
// may set the keys that need trust (TrustedKeys) only when the user's
// TrustStore lists its project with the SHA-256 of the file's current
// bytes: otherwise each is ignored with a Warning and keeps its lower
// layer's value. The user file and ConfigFile may set
// every key.
func Load(opts LoadOptions) (*Config, []Warning, error) {
	opts = opts.withDefaults()
	c := Defaults()
	c.dataHomeDir = xdgDir(opts.Getenv, "XDG_DATA_HOME", filepath.Join(".local", "share"))
	var warnings []Warning
	for _, f := range configFiles(opts) {
		w, err := loadFile(c, f, opts.Getenv)
		warnings = append(warnings, w...)
		if err != nil {
			return nil, warnings, err
		}
	}
	if err := applyEnv(c, opts.Getenv); err != nil {
		return nil, warnings, err
	}
	if err := applyFlags(c, opts.Flags); err != nil {
		return nil, warnings, err
	}
	warnings = append(warnings, checkMCP(c)...)
	c.Datalog.Path = expandHome(c.Datalog.Path, opts.Getenv)
	if err := validate(c); err != nil {
		return nil, warnings, err
	}
	return c, warnings, nil
}

// configFile is one file Load reads.
type configFile struct {
	path     string
	required bool
	project  bool // found by the project search: the keys needing trust need it
}

// configFiles lists the files to read, lowest precedence first.
func configFiles(opts LoadOptions) []configFile {
	if opts.ConfigFile != "" {
		return []configFile{{opts.ConfigFile, true, false}}
	}
	var files []configFile
	if u := userConfigPath(opts.Getenv); u != "" {
		files = append(files, configFile{u, false, false})
	}
	if p := projectConfigPath(opts.Cwd); p != "" && !sameFile(p, userConfigPath(opts.Getenv)) {
		files = append(files, configFile{p, false, true})
	}
	return files
}

// loadFile reads and applies one file; a missing optional file is skipped.
// A project file's directory is looked up in the user's trust file only
// when there is a project file, and the trust checked is that of the very
// bytes applied: the file is read once.
func loadFile(c *Config, f configFile, getenv func(string) string) ([]Warning, error) {
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) && !f.required {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{Path: f.path, Msg: fmt.Sprintf("cannot read the configuration file: %v", unwrapPath(err))}
	}
	var untrusted projectTrust
	if f.project {
		untrusted = checkTrust(f.path, data, getenv)
	}
	return applyFile(c, f.path, untrusted, data)
}

// unwrapPath drops the path from an *fs.PathError, which Error already shows.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// expandHome expands a leading "~/" so datalog.path = "~/keel.db" works.
func expandHome(p string, getenv func(string) string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, rest)
		}
	}
	return p
}
