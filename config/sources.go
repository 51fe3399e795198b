package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// SourceKind says which layer a value came from.
type SourceKind int

// The layers, lowest precedence first.
const (
	FromDefault SourceKind = iota
	FromFile
	FromEnv
	FromFlag
)

// Source is where one effective value came from.
type Source struct {
	Kind      SourceKind
	Name      string // file path, environment variable or flag name
	Line, Col int    // position of the key in the file (FromFile only)
}

// String reads "default", "path:line", "env KEEL_MODEL" or "flag --model".
func (s Source) String() string {
	switch s.Kind {
	case FromFile:
		if s.Line > 0 {
			return fmt.Sprintf("%s:%d", s.Name, s.Line)
		}
		return s.Name
	case FromEnv:
		return "env " + s.Name
	case FromFlag:
		return "flag --" + s.Name
	}
	return "default"
}

// SearchPaths lists the files Load would read, lowest precedence first: the
// --config file alone, or the user file then the project file candidates
// from the git root (or Cwd) down to Cwd. Only the nearest existing project
// file is used.
func SearchPaths(opts LoadOptions) []string {
	opts = opts.withDefaults()
	if opts.ConfigFile != "" {
		return []string{opts.ConfigFile}
	}
	var paths []string
	if u := userConfigPath(opts.Getenv); u != "" {
		paths = append(paths, u)
	}
	dirs := projectDirs(opts.Cwd)
	for i := len(dirs) - 1; i >= 0; i-- {
		paths = append(paths, filepath.Join(dirs[i], ".keel", "config.toml"))
	}
	return paths
}

// userConfigPath is $XDG_CONFIG_HOME/keel/config.toml, falling back to
// ~/.config/keel/config.toml. Relative XDG values are ignored, as the XDG
// spec says. It is "" when neither XDG_CONFIG_HOME nor HOME is set.
func userConfigPath(getenv func(string) string) string {
	dir := xdgDir(getenv, "XDG_CONFIG_HOME", ".config")
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "keel", "config.toml")
}

// xdgDir resolves an XDG base directory variable with its HOME fallback,
// or "" when neither is set (never a path relative to the process).
func xdgDir(getenv func(string) string, env, fallback string) string {
	if d := getenv(env); filepath.IsAbs(d) {
		return d
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, fallback)
	}
	return ""
}

// projectDirs lists the directories searched for .keel/config.toml, nearest
// first: from cwd up to the git root (the first directory holding .git), or
// cwd alone when there is no git root.
func projectDirs(cwd string) []string {
	var dirs []string
	for dir := cwd; ; {
		dirs = append(dirs, dir)
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dirs
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dirs[:1] // no git root: the working directory only
		}
		dir = parent
	}
}

// projectConfigPath returns the nearest existing project file, or "".
func projectConfigPath(cwd string) string {
	for _, dir := range projectDirs(cwd) {
		p := filepath.Join(dir, ".keel", "config.toml")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

// joinPath joins path elements; kept separate so config.go needs no
// path/filepath import.
func joinPath(elem ...string) string { return filepath.Join(elem...) }
