package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// trustedKeys are the keys outside [providers] that a project file may set
// only when the user trusts the project: each runs commands without asking,
// lets them write more or see more secrets.
var trustedKeys = []string{"yolo", "permissions.allow", "permissions.env_passthrough", "sandbox", "sandbox_writable"}

// trustedProviderKeys are the keys of a [providers.NAME] table that need
// trust: each decides where the API key goes, or which key is sent.
var trustedProviderKeys = []string{"base_url", "api_key_env", "api_key"}

// needsTrust reports whether a project file may set the dotted key only
// when the project is trusted.
func needsTrust(key string) bool { return slices.Contains(trustedKeys, key) }

// providerNeedsTrust is needsTrust for a key of a [providers.NAME] table.
func providerNeedsTrust(key string) bool { return slices.Contains(trustedProviderKeys, key) }

// TrustedKeys lists the keys a project's .keel/config.toml may set only
// once the user trusts the project, for help texts: providers.*.base_url
// stands for the key in every provider table.
func TrustedKeys() []string {
	keys := slices.Clone(trustedKeys)
	for _, k := range trustedProviderKeys {
		keys = append(keys, "providers.*."+k)
	}
	return keys
}

// refuse reports whether the key at parts must be ignored because it needs
// trust and the file is an untrusted project's; it records the warning and
// where the value would have come from.
func (d *fileDecoder) refuse(parts []string, needs bool) bool {
	if !needs || d.untrusted == "" {
		return false
	}
	key := strings.Join(parts, ".")
	src := d.source(parts)
	d.cfg.ignored[key] = src
	d.cfg.untrusted = d.untrusted
	d.warnings = append(d.warnings, Warning{Path: d.path, Line: src.Line, Col: src.Col, Key: key, Project: d.untrusted})
	return true
}

// untrustedProject returns the directory of the project whose file is at
// path (the directory holding .keel/) when the user does not trust it, or
// "" when the user does. A trust file that cannot be read trusts nothing.
func untrustedProject(path string, getenv func(string) string) string {
	dir := CanonicalDir(filepath.Dir(filepath.Dir(path)))
	if ok, err := NewTrustStore(getenv).Trusts(dir); ok && err == nil {
		return ""
	}
	return dir
}

// ProjectDir returns the project directory whose trust governs a session
// started in cwd, symlinks resolved: the directory holding the nearest
// .keel/config.toml Load would read, and hasConfig true; else the git root
// (or cwd when there is none) and hasConfig false.
func ProjectDir(cwd string) (dir string, hasConfig bool) {
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	if p := projectConfigPath(cwd); p != "" {
		return CanonicalDir(filepath.Dir(filepath.Dir(p))), true
	}
	dirs := projectDirs(cwd)
	return CanonicalDir(dirs[len(dirs)-1]), false
}

// CanonicalDir is dir made absolute with its symlinks resolved, the form
// the trust file stores; a directory that does not exist is only cleaned.
func CanonicalDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return filepath.Clean(dir)
}

// UntrustedProject is the directory of the project file whose keys needing
// trust were ignored, or "" when none was.
func (c *Config) UntrustedProject() string { return c.untrusted }

// IgnoredSource reports where an untrusted project file set key, when Load
// ignored it; the key's value and Source are the lower layers'.
func (c *Config) IgnoredSource(key string) (Source, bool) {
	s, ok := c.ignored[key]
	return s, ok
}

// sameFile reports whether two paths name the same existing file.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
