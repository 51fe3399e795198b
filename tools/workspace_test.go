package tools

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWorkspaceRootIsGitRoot(t *testing.T) {
	ws := newTestWS(t, map[string]string{"sub/dir/f.go": "x"})
	inner, err := NewWorkspace(filepath.Join(ws.Root(), "sub", "dir"))
	if err != nil {
		t.Fatal(err)
	}
	if inner.Root() != ws.Root() {
		t.Errorf("root from subdir = %s, want %s", inner.Root(), ws.Root())
	}
	plain := t.TempDir()
	pw, _ := NewWorkspace(plain)
	if want, _ := filepath.EvalSymlinks(plain); pw.Root() != want {
		t.Errorf("no git: root = %s, want %s", pw.Root(), want)
	}
}

func TestResolve(t *testing.T) {
	ws := newTestWS(t, map[string]string{"a b/ünï.txt": "x", "src/main.go": "x"})
	outside := t.TempDir()
	outside, _ = filepath.EvalSymlinks(outside)
	writeTestFile(t, filepath.Join(outside, "secret"), "s")
	must(t, os.Symlink(outside, filepath.Join(ws.Root(), "escape")))
	must(t, os.Symlink(filepath.Join(ws.Root(), "src"), filepath.Join(ws.Root(), "alias")))
	r := ws.Root()
	tests := []struct {
		in, want string
		inside   bool
	}{
		{"", r, true},
		{".", r, true},
		{"src/main.go", filepath.Join(r, "src/main.go"), true},
		{"./src/../src/main.go", filepath.Join(r, "src/main.go"), true},
		{filepath.Join(r, "src/main.go"), filepath.Join(r, "src/main.go"), true},
		{"a b/ünï.txt", filepath.Join(r, "a b/ünï.txt"), true},
		{"new/dir/file.go", filepath.Join(r, "new/dir/file.go"), true},
		{"alias/main.go", filepath.Join(r, "src/main.go"), true},
		{"alias/new.go", filepath.Join(r, "src/new.go"), true},
		{"../outside.txt", filepath.Join(filepath.Dir(r), "outside.txt"), false},
		{"escape/secret", filepath.Join(outside, "secret"), false}, // symlink pointing outside is outside
		{"escape/new", filepath.Join(outside, "new"), false},
		{"~/notes.md", filepath.Join(ws.home, "notes.md"), false},
		{"~", ws.home, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ws.Resolve(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want || ws.Inside(got) != tc.inside {
				t.Errorf("Resolve(%q) = %s inside=%v, want %s inside=%v", tc.in, got, ws.Inside(got), tc.want, tc.inside)
			}
		})
	}
}

func TestInsideIsNotPrefixMatch(t *testing.T) {
	ws := newTestWS(t, nil)
	if ws.Inside(ws.Root() + "-other/x") {
		t.Error("a sibling directory sharing the root's prefix counted as inside")
	}
}

func TestInGitDir(t *testing.T) {
	for p, want := range map[string]bool{"/r/.git": true, "/r/.git/config": true, "/r/sub/.git/hooks/x": true,
		"/r/.github/x": false, "/r/.gitignore": false, "/r/a.git": false} {
		if InGitDir(p) != want {
			t.Errorf("InGitDir(%s) = %v", p, !want)
		}
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
