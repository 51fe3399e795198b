// Package config loads keel's configuration from TOML files, the environment and flags into one Config value that remembers where each setting came from.
package config
