package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
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
	steps := []struct {
		name string
		op   func() (bool, error)
		want bool
		list []string
	}{
		{"add a", func() (bool, error) { return s.Add(a) }, true, []string{a}},
		{"add a again", func() (bool, error) { return s.Add(a + "/") }, false, []string{a}},
		{"add b", func() (bool, error) { return s.Add(b) }, true, []string{a, b}},
		{"add an odd name", func() (bool, error) { return s.Add(odd) }, true, []string{a, b, CanonicalDir(odd)}},
		{"remove a", func() (bool, error) { return s.Remove(a) }, true, []string{b, CanonicalDir(odd)}},
		{"remove a again", func() (bool, error) { return s.Remove(a) }, false, []string{b, CanonicalDir(odd)}},
		{"remove a deleted dir", func() (bool, error) { os.RemoveAll(odd); return s.Remove(odd) }, true, []string{b}},
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
	if ok, err := s.Trusts(b); !ok || err != nil {
		t.Errorf("Trusts(b) = %v, %v", ok, err)
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

func TestTrustStoreProblems(t *testing.T) {
	home := t.TempDir()
	s := NewTrustStore(fakeEnv{"HOME": home}.get)
	if want := filepath.Join(home, ".config", "keel", "trusted.toml"); s.Path != want {
		t.Errorf("Path without XDG = %s", s.Path)
	}
	writeFile(t, s.Path, "projects = [\n")
	if _, err := s.List(); err == nil {
		t.Error("a broken trust file must be an error")
	}
	if _, err := s.Add(t.TempDir()); err == nil {
		t.Error("Add over a broken trust file must fail, not overwrite it")
	}

	none := NewTrustStore(fakeEnv{}.get)
	if list, err := none.List(); none.Path != "" || list != nil || err != nil {
		t.Errorf("no HOME: %q %v %v", none.Path, list, err)
	}
	if _, err := none.Add(t.TempDir()); !errors.Is(err, ErrNoConfigDir) {
		t.Errorf("no HOME: Add err = %v", err)
	}
}

func TestBrokenTrustFileTrustsNothing(t *testing.T) {
	w := newWorld(t)
	writeFile(t, w.projectFile, lines(`yolo = true`))
	w.trust(t)
	writeFile(t, NewTrustStore(w.env.get).Path, "projects = "+tomlString(w.root)+"\n") // a string, not a list
	c, warns := w.load(t)
	if c.Yolo || len(warns) != 1 {
		t.Errorf("yolo = %v, warnings %v: a broken trust file must trust nothing", c.Yolo, warns)
	}
}
