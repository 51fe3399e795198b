package main

import "runtime/debug"

// buildVersion is keel's version when none was stamped (make build stamps
// it): the module's version from the build information, which go install
// module@version and a build in a git checkout record, or else the
// commit; "dev" when the build recorded neither.
func buildVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "dev"
	}
	if v := moduleVersion(info); v != "" {
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "-dirty"
	}
	return rev
}

// modulePath is keel's module, as go.mod names it.
const modulePath = "github.com/keel-dev/keel"

// moduleVersion is keel's module version in info: the main module's, or
// keel's as a dependency (a module that requires keel built its cmd/keel);
// "" when it has none ("(devel)").
func moduleVersion(info *debug.BuildInfo) string {
	m := &info.Main
	if m.Path != modulePath {
		m = nil
		for _, d := range info.Deps {
			if d.Path == modulePath {
				m = d
			}
		}
	}
	if m == nil {
		return ""
	}
	v := m.Version
	if m.Replace != nil && m.Replace.Version != "" && m.Replace.Version != "(devel)" {
		v = m.Replace.Version
	}
	if v == "(devel)" {
		return ""
	}
	return v
}
