package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// trustedKeys are the keys outside [providers] that a project file may set
// only when the user trusts the project: each runs commands without asking,
// lets them write more or see more secrets, (datalog.path) chooses where
// keel writes its database, (telemetry.*) sends what keel does elsewhere,
// or (fetch.allow_*) lets fetch reach hosts and networks without asking.
var trustedKeys = []string{"yolo", "permissions.allow", "permissions.env_passthrough", "sandbox.mode", "sandbox.writable", "sandbox.readable", "datalog.path",
	"telemetry.enabled", "telemetry.endpoint", "telemetry.log_content", "fetch.allow_domains", "fetch.allow_networks"}

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
	return append(keys, "mcp.servers.*", "hooks.*") // a server and a hook are commands keel runs
}

// projectTrust is the trust verdict on one project file: Dir is the
// project's directory when the keys needing trust must be ignored, "" when
// the user trusts the file; Changed says the directory is trusted but the
// file is not the content the user trusted.
type projectTrust struct {
	Dir     string
	Changed bool
}

// reason is why the keys were ignored, for messages that go on
// "…ignored because ": "this project is not trusted" or ".keel/config.toml
// changed since you trusted DIR".
func (t projectTrust) reason() string {
	if t.Changed {
		return ".keel/config.toml changed since you trusted " + t.Dir
	}
	return "this project is not trusted"
}

// remedy is what the user runs to apply the ignored keys.
func (t projectTrust) remedy() string {
	if t.Changed {
		return "review it, then run \"keel trust\" again"
	}
	return "run \"keel trust\" to trust " + t.Dir
}

// refuse reports whether the key at parts must be ignored because it needs
// trust and the file is an untrusted project's; it records the warning and
// where the value would have come from.
func (d *fileDecoder) refuse(parts []string, needs bool) bool {
	if !needs || d.untrusted.Dir == "" {
		return false
	}
	key := strings.Join(parts, ".")
	src := d.source(parts)
	d.cfg.ignored[key] = src
	d.cfg.untrusted = d.untrusted
	d.warnings = append(d.warnings, Warning{Path: d.path, Line: src.Line, Col: src.Col, Key: key,
		Project: d.untrusted.Dir, Changed: d.untrusted.Changed})
	return true
}

// checkTrust judges the project file at path (in the directory holding
// .keel/) whose bytes, as read and about to be applied, are data: trusted
// only when the user's trust file lists the directory with the SHA-256 of
// exactly these bytes. A trust file that cannot be read trusts nothing.
func checkTrust(path string, data []byte, getenv func(string) string) projectTrust {
	dir := CanonicalDir(filepath.Dir(filepath.Dir(path)))
	p, ok, err := NewTrustStore(getenv).Lookup(dir)
	switch {
	case err != nil || !ok:
		return projectTrust{Dir: dir}
	case !p.Matches(ConfigSHA256(data)):
		return projectTrust{Dir: dir, Changed: true}
	}
	return projectTrust{}
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
// trust were ignored, or "" when none was; changed is true when the
// directory is trusted but its .keel/config.toml changed since.
func (c *Config) UntrustedProject() (dir string, changed bool) {
	return c.untrusted.Dir, c.untrusted.Changed
}

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
