package config

import "strings"

// SecretEnvName reports whether an environment variable's name marks its
// value as a secret: upper-cased, it ends in _KEY, _TOKEN or _SECRET, or
// contains PASSWORD. This is keel's one definition of that rule: such
// variables are kept from run_command's children (unless listed in
// permissions.env_passthrough) and their values are redacted from logs.
func SecretEnvName(name string) bool {
	n := strings.ToUpper(name)
	return strings.HasSuffix(n, "_KEY") || strings.HasSuffix(n, "_TOKEN") ||
		strings.HasSuffix(n, "_SECRET") || strings.Contains(n, "PASSWORD")
}
