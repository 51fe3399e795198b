package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// TrustStore is the user's list of trusted project directories, kept in
// $XDG_CONFIG_HOME/keel/trusted.toml (else ~/.config/keel/trusted.toml) as
// `projects = ["/abs/dir"]`. It lives in the user's configuration
// directory, never in a project, so no project can trust itself.
type TrustStore struct {
	// Path is the trust file; "" when neither XDG_CONFIG_HOME nor HOME is
	// set, and then nothing is trusted and nothing can be.
	Path string
}

// trustFile is the document stored at TrustStore.Path.
type trustFile struct {
	Projects []string `toml:"projects"`
}

// ErrNoConfigDir is returned when trust cannot be stored because neither
// XDG_CONFIG_HOME nor HOME is set.
var ErrNoConfigDir = errors.New("neither XDG_CONFIG_HOME nor HOME is set, so keel has nowhere to store trusted projects")

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

// List returns the trusted directories in the order they were added. A
// missing file is an empty list.
func (s *TrustStore) List() ([]string, error) {
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
		return nil, fmt.Errorf("the trusted projects file %s is not valid TOML (%v); fix or delete it", s.Path, err)
	}
	return f.Projects, nil
}

// Trusts reports whether dir, in CanonicalDir form, is listed exactly.
func (s *TrustStore) Trusts(dir string) (bool, error) {
	dirs, err := s.List()
	return slices.Contains(dirs, dir), err
}

// Add trusts dir (stored in CanonicalDir form); added is false when it was
// already trusted.
func (s *TrustStore) Add(dir string) (added bool, err error) {
	dirs, err := s.List()
	if err != nil {
		return false, err
	}
	dir = CanonicalDir(dir)
	if slices.Contains(dirs, dir) {
		return false, nil
	}
	return true, s.write(append(dirs, dir))
}

// Remove stops trusting dir, given as listed or in any form CanonicalDir
// resolves to a listed one; removed is false when it was not trusted.
func (s *TrustStore) Remove(dir string) (removed bool, err error) {
	dirs, err := s.List()
	if err != nil {
		return false, err
	}
	kept := slices.DeleteFunc(slices.Clone(dirs), func(d string) bool {
		return d == dir || d == CanonicalDir(dir)
	})
	if len(kept) == len(dirs) {
		return false, nil
	}
	return true, s.write(kept)
}

// write replaces the trust file atomically: a private temporary file in a
// private directory, renamed over the old one.
func (s *TrustStore) write(dirs []string) error {
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
	_, err = tmp.WriteString(renderTrust(dirs))
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
func renderTrust(dirs []string) string {
	var b strings.Builder
	b.WriteString("# Projects whose .keel/config.toml keel applies in full (written by \"keel trust\").\n")
	b.WriteString("projects = [\n")
	for _, d := range dirs {
		fmt.Fprintf(&b, "  %s,\n", tomlString(d))
	}
	b.WriteString("]\n")
	return b.String()
}
