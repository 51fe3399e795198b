package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// TrustStore is the user's list of trusted projects, kept in
// $XDG_CONFIG_HOME/keel/trusted.toml (else ~/.config/keel/trusted.toml) as
// one [[project]] table per directory, with the SHA-256 of the project's
// .keel/config.toml when it was trusted. It lives in the user's
// configuration directory, never in a project, so no project can trust
// itself.
type TrustStore struct {
	// Path is the trust file; "" when neither XDG_CONFIG_HOME nor HOME is
	// set, and then nothing is trusted and nothing can be.
	Path string
}

// TrustedProject is one entry of the trust file: a project directory and
// the content of its .keel/config.toml the user trusted.
type TrustedProject struct {
	Path string `toml:"path"` // in CanonicalDir form
	// ConfigSHA256 is the hex SHA-256 of the .keel/config.toml bytes
	// trusted (ConfigSHA256), or "" when the directory had no such file.
	ConfigSHA256 string `toml:"config_sha256"`
}

// Matches reports whether sha, the ConfigSHA256 of the project's current
// file ("" when it has none), is the content the user trusted.
func (p TrustedProject) Matches(sha string) bool { return p.ConfigSHA256 == sha }

// trustFile is the document stored at TrustStore.Path. A file in the
// unreleased `projects = [...]` format has no [[project]] table, so it
// trusts nothing.
type trustFile struct {
	Project []TrustedProject `toml:"project"`
}

// TrustChange says what Add did.
type TrustChange int

const (
	TrustAdded     TrustChange = iota // the directory was not trusted
	TrustUpdated                      // trusted before, with other content: the new hash replaced it
	TrustUnchanged                    // already trusted with exactly this content
)

// ErrNoConfigDir is returned when trust cannot be stored because neither
// XDG_CONFIG_HOME nor HOME is set.
var ErrNoConfigDir = errors.New("neither XDG_CONFIG_HOME nor HOME is set, so keel has nowhere to store trusted projects")

// ConfigSHA256 is the hex SHA-256 of a project file's bytes, the form the
// trust file records.
func ConfigSHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ProjectConfigSHA256 reads dir's .keel/config.toml and returns its
// ConfigSHA256, or "" when there is no such file (a directory by that name
// is none, as for Load).
func ProjectConfigSHA256(dir string) (string, error) {
	path := filepath.Join(dir, ".keel", "config.toml")
	if fi, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) || (err == nil && fi.IsDir()) {
		return "", nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, unwrapPath(err))
	}
	return ConfigSHA256(data), nil
}

// NewTrustStore returns the trust store of the user whose environment
// getenv reads; a nil getenv means os.Getenv.
func NewTrustStore(getenv func(string) string) *TrustStore {
	if getenv == nil {
		getenv = os.Getenv
	}
	dir := xdgDir(getenv, "XDG_CONFIG_HOME", ".config")
	if dir == "" {
		return &TrustStore{}
	}
	return &TrustStore{Path: filepath.Join(dir, "keel", "trusted.toml")}
}

// List returns the trusted projects in the order they were added. A
// missing file is an empty list.
func (s *TrustStore) List() ([]TrustedProject, error) {
	if s.Path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the trusted projects file %s: %w", s.Path, unwrapPath(err))
	}
	var f trustFile
	if err := toml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("the trusted projects file %s cannot be read (%v); fix or delete it", s.Path, err)
	}
	for i := range f.Project {
		f.Project[i].ConfigSHA256 = strings.ToLower(f.Project[i].ConfigSHA256)
	}
	return f.Project, nil
}

// Lookup returns the entry of dir, in CanonicalDir form and listed
// exactly; ok is false when dir is not trusted.
func (s *TrustStore) Lookup(dir string) (p TrustedProject, ok bool, err error) {
	list, err := s.List()
	if err != nil {
		return TrustedProject{}, false, err
	}
	i := slices.IndexFunc(list, func(p TrustedProject) bool { return p.Path == dir })
	if i < 0 {
		return TrustedProject{}, false, nil
	}
	return list[i], true, nil
}

// Add trusts dir (stored in CanonicalDir form) with its .keel/config.toml
// as hashed in sha (ConfigSHA256, or "" for no file), replacing the hash
// recorded before.
func (s *TrustStore) Add(dir, sha string) (TrustChange, error) {
	list, err := s.List()
	if err != nil {
		return 0, err
	}
	dir = CanonicalDir(dir)
	change := TrustAdded
	for i, p := range list {
		if p.Path != dir {
			continue
		}
		if change == TrustAdded {
			change = TrustUnchanged
		}
		if !p.Matches(sha) {
			list[i].ConfigSHA256, change = sha, TrustUpdated
		}
	}
	switch change {
	case TrustUnchanged:
		return change, nil
	case TrustAdded:
		list = append(list, TrustedProject{Path: dir, ConfigSHA256: sha})
	}
	return change, s.write(list)
}

// Remove stops trusting dir, given as listed or in any form CanonicalDir
// resolves to a listed one; removed is false when it was not trusted.
func (s *TrustStore) Remove(dir string) (removed bool, err error) {
	list, err := s.List()
	if err != nil {
		return false, err
	}
	kept := slices.DeleteFunc(slices.Clone(list), func(p TrustedProject) bool {
		return p.Path == dir || p.Path == CanonicalDir(dir)
	})
	if len(kept) == len(list) {
		return false, nil
	}
	return true, s.write(kept)
}

// write replaces the trust file atomically: a private temporary file in a
// private directory, renamed over the old one.
func (s *TrustStore) write(list []TrustedProject) error {
	if s.Path == "" {
		return ErrNoConfigDir
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".trusted-*.toml")
	if err != nil {
		return fmt.Errorf("write the trusted projects file: %w", err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	_, err = tmp.WriteString(renderTrust(list))
	if err == nil {
		err = tmp.Chmod(0o600)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.Path)
	}
	if err != nil {
		return fmt.Errorf("write the trusted projects file %s: %w", s.Path, err)
	}
	return nil
}

// renderTrust writes the trust file's text.
func renderTrust(list []TrustedProject) string {
	var b strings.Builder
	b.WriteString("# Projects whose .keel/config.toml keel applies in full (written by \"keel trust\"),\n")
	b.WriteString("# each only while that file's SHA-256 is config_sha256 (\"\": while there is no file).\n")
	for _, p := range list {
		fmt.Fprintf(&b, "\n[[project]]\npath = %s\nconfig_sha256 = %s\n", tomlString(p.Path), tomlString(p.ConfigSHA256))
	}
	return b.String()
}
