// Package config loads keel's configuration from TOML files, the environment and flags into one Config value that remembers where each setting came from.
//
// Precedence, lowest first: built-in defaults, the user file
// ($XDG_CONFIG_HOME/keel/config.toml or ~/.config/keel/config.toml), the
// nearest project file (.keel/config.toml from the working directory up to
// the git root), the environment (KEEL_*, OPENAI_BASE_URL), then flags. With
// --config only that file is read.
//
// A project file is the repository's, not the user's: until the user trusts
// its directory (keel trust, stored in trusted.toml beside the user file),
// the keys that run commands without asking or redirect the API key are
// ignored there with a warning (trust.go, truststore.go).
//
// One schema (schema.go) drives decoding, validation, Render and
// InitTemplate. go-toml/v2 decodes each document into generic values; the
// unstable parser API locates every key, so a wrong type, an out-of-range
// value or an unknown key is reported as path:line:col.
package config
