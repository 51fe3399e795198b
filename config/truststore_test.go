package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestTrustStoreRoundTrip(t *testing.T) {
	xdg := t.TempDir()
	s := NewTrustStore(fakeEnv{"XDG_CONFIG_HOME": xdg, "HOME": t.TempDir()}.get)
	if want := filepath.Join(xdg, "keel", "trusted.toml"); s.Path != want {
		t.Fatalf("Path = %s, want %s", s.Path, want)
	}
	a, b := CanonicalDir(t.TempDir()), CanonicalDir(t.TempDir())
	odd := filepath.Join(t.TempDir(), `we"ird\ dir`)
	mkdir(t, odd)
	oddC := CanonicalDir(odd)
	h1, h2 := ConfigSHA256([]byte("yolo = true\n")), ConfigSHA256([]byte("yolo = false\n"))
	add := func(dir, sha string) func() (any, error) {
		return func() (any, error) { return s.Add(dir, sha) }
	}
	remove := func(dir string) func() (any, error) {
		return func() (any, error) { return s.Remove(dir) }
	}
	steps := []struct {
		name string
		op   func() (any, error)
		want any
		list []TrustedProject
	}{
		{"add a", add(a, h1), TrustAdded, []TrustedProject{{a, h1}}},
		{"add a again", add(a+"/", h1), TrustUnchanged, []TrustedProject{{a, h1}}},
		{"add a with a new hash", add(a, h2), TrustUpdated, []TrustedProject{{a, h2}}},
		{"add b without a file", add(b, ""), TrustAdded, []TrustedProject{{a, h2}, {b, ""}}},
		{"add b with a file", add(b, h1), TrustUpdated, []TrustedProject{{a, h2}, {b, h1}}},
		{"add an odd name", add(odd, ""), TrustAdded, []TrustedProject{{a, h2}, {b, h1}, {oddC, ""}}},
		{"remove a", remove(a), true, []TrustedProject{{b, h1}, {oddC, ""}}},
		{"remove a again", remove(a), false, []TrustedProject{{b, h1}, {oddC, ""}}},
		{"remove a deleted dir", func() (any, error) { os.RemoveAll(odd); return s.Remove(odd) }, true, []TrustedProject{{b, h1}}},
	}
	for _, st := range steps {
		got, err := st.op()
		if err != nil || got != st.want {
			t.Fatalf("%s: %v, %v; want %v", st.name, got, err, st.want)
		}
		list, err := s.List()
		if err != nil || !reflect.DeepEqual(list, st.list) {
			t.Fatalf("%s: List = %v, %v; want %v", st.name, list, err, st.list)
		}
	}
	if p, ok, err := s.Lookup(b); !ok || err != nil || p != (TrustedProject{b, h1}) {
		t.Errorf("Lookup(b) = %v, %v, %v", p, ok, err)
	}
	if _, ok, err := s.Lookup(a); ok || err != nil {
		t.Errorf("Lookup(a) after removal = %v, %v", ok, err)
	}
	fi, err := os.Stat(s.Path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("trust file mode = %v, %v; want 0600", fi.Mode(), err)
	}
	if di, err := os.Stat(filepath.Dir(s.Path)); err != nil || di.Mode().Perm() != 0o700 {
		t.Errorf("trust dir mode = %v, %v; want 0700", di.Mode(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(s.Path), ".trusted-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestTrustStoreFileFormat(t *testing.T) {
	s := NewTrustStore(fakeEnv{"HOME": t.TempDir()}.get)
	dir := CanonicalDir(t.TempDir())
	sha := ConfigSHA256([]byte("x"))
	if _, err := s.Add(dir, sha); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	want := "\n[[project]]\npath = " + tomlString(dir) + "\nconfig_sha256 = \"" + sha + "\"\n"
	if !strings.HasSuffix(string(data), want) {
		t.Errorf("trust file:\n%s\nwant it to end with:\n%s", data, want)
	}

	// Hand-edited: upper-case hex still matches; a missing hash means "no file".
	writeFile(t, s.Path, lines(`[[project]]`, `path = `+tomlString(dir), `config_sha256 = "`+strings.ToUpper(sha)+`"`,
		`[[project]]`, `path = "/elsewhere"`))
	list, err := s.List()
	if want := []TrustedProject{{dir, sha}, {"/elsewhere", ""}}; err != nil || !reflect.DeepEqual(list, want) {
		t.Errorf("List = %v, %v; want %v", list, err, want)
	}
}

func TestConfigSHA256(t *testing.T) {
	dir := t.TempDir()
	if sha, err := ProjectConfigSHA256(dir); sha != "" || err != nil {
		t.Errorf("no .keel: %q, %v", sha, err)
	}
	mkdir(t, filepath.Join(dir, ".keel", "config.toml"))
	if sha, err := ProjectConfigSHA256(dir); sha != "" || err != nil {
		t.Errorf("config.toml is a directory: %q, %v; want none, as Load sees it", sha, err)
	}
	for _, content := range []string{"", "yolo = true\n", "yolo = true\n# edit\n", "\xff\x00binary"} {
		os.RemoveAll(filepath.Join(dir, ".keel"))
		writeFile(t, filepath.Join(dir, ".keel", "config.toml"), content)
		sum := sha256.Sum256([]byte(content))
		want := hex.EncodeToString(sum[:])
		if got, err := ProjectConfigSHA256(dir); got != want || err != nil || ConfigSHA256([]byte(content)) != want {
			t.Errorf("%q: %q, %v; want %s", content, got, err, want)
		}
	}
}

func TestTrustStoreProblems(t *testing.T) {
	home := t.TempDir()
	s := NewTrustStore(fakeEnv{"HOME": home}.get)
	if want := filepath.Join(home, ".config", "keel", "trusted.toml"); s.Path != want {
		t.Errorf("Path without XDG = %s", s.Path)
	}
	for _, broken := range []string{"[[project]\n", "project = \"/a\"\n", "[[project]]\npath = 1\n"} {
		writeFile(t, s.Path, broken)
		if _, err := s.List(); err == nil || !strings.Contains(err.Error(), "fix or delete it") {
			t.Errorf("%q: List err = %v, want one saying to fix or delete it", broken, err)
		}
		if _, err := s.Add(t.TempDir(), ""); err == nil {
			t.Errorf("%q: Add over a broken trust file must fail, not overwrite it", broken)
		}
	}

	none := NewTrustStore(fakeEnv{}.get)
	if list, err := none.List(); none.Path != "" || list != nil || err != nil {
		t.Errorf("no HOME: %q %v %v", none.Path, list, err)
	}
	if _, err := none.Add(t.TempDir(), ""); !errors.Is(err, ErrNoConfigDir) {
		t.Errorf("no HOME: Add err = %v", err)
	}
}

func TestBrokenTrustFileTrustsNothing(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.projectFile, lines(`yolo = true`))
	w.trust(t)
	writeFile(t, NewTrustStore(w.env.get).Path, "[[project]]\npath = "+tomlString(w.root)+"\nconfig_sha256 = 1\n")
	c, warns := w.load(t)
	if c.Yolo || len(warns) != 1 {
		t.Errorf("yolo = %v, warnings %v: a broken trust file must trust nothing", c.Yolo, warns)
	}
}

// TestOldTrustFileFormat: the unreleased `projects = [...]` format, which
// bound trust to no content, trusts nothing and is replaced by keel trust.
func TestOldTrustFileFormat(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.projectFile, lines(`yolo = true`))
	s := NewTrustStore(w.env.get)
	writeFile(t, s.Path, "projects = [\n  "+tomlString(CanonicalDir(w.root))+",\n]\n")
	if list, err := s.List(); list != nil || err != nil {
		t.Errorf("List of the old format = %v, %v; want nothing and no error", list, err)
	}
	c, warns := w.load(t)
	if c.Yolo || len(warns) != 1 || warns[0].Changed {
		t.Errorf("old format: yolo = %v, warnings %v; want yolo ignored as not trusted", c.Yolo, warns)
	}
	w.trust(t)
	if c, warns = w.load(t); !c.Yolo || len(warns) != 0 {
		t.Errorf("re-trusted: yolo = %v, warnings %v", c.Yolo, warns)
	}
	if data, _ := os.ReadFile(s.Path); strings.Contains(string(data), "projects") {
		t.Errorf("keel trust kept the old format:\n%s", data)
	}
}
