package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoInstallAtVersion builds keel as `go install
// github.com/keel-dev/keel/cmd/keel@VERSION` does: keel is a dependency of
// another module, so keel's own replace and exclude directives do not
// apply. A throwaway module requires keel, points it at this checkout (the
// replace is the throwaway module's own), and builds cmd/keel; go install
// @VERSION also refuses a module whose go.mod has replace or exclude
// directives at all, so there must be none.
func TestGoInstallAtVersion(t *testing.T) {
	t.Parallel() // waits on the go command: overlaps the package's other tests
	if testing.Short() {
		t.Skip("builds keel from a throwaway module")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	noReplaceOrExclude(t, root)
	mod := t.TempDir()
	gomod := "module keelinstall\n\nrequire github.com/keel-dev/keel v0.0.0\n\nreplace github.com/keel-dev/keel => " + root + "\n"
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum")) // the same module versions: no download the build does not need
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	// tools.go makes cmd/keel a package of the throwaway module's build
	// list, so tidy keeps what it needs.
	tools := "//go:build tools\n\npackage tools\n\nimport _ \"github.com/keel-dev/keel/cmd/keel\"\n"
	if err := os.WriteFile(filepath.Join(mod, "tools.go"), []byte(tools), 0o644); err != nil {
		t.Fatal(err)
	}
	goIn(t, mod, "mod", "tidy")
	bin := filepath.Join(mod, "keel")
	goIn(t, mod, "build", "-o", bin, "github.com/keel-dev/keel/cmd/keel")
	out, err := exec.Command(bin, "--version").CombinedOutput()
	// No version was stamped: it comes from the build information (keel
	// is a dependency here, required at v0.0.0), never "dev" (issue 32).
	if err != nil || !strings.HasPrefix(string(out), "keel ") || strings.Contains(string(out), "dev") {
		t.Fatalf("the installed keel --version: %v: %q", err, out)
	}
}

// noReplaceOrExclude fails when keel's go.mod has a replace or exclude
// directive: go install …@VERSION refuses such a module.
func noReplaceOrExclude(t *testing.T, root string) {
	t.Helper()
	cmd := exec.Command("go", "mod", "edit", "-json")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	var mod struct {
		Replace []struct{ Old struct{ Path string } }
		Exclude []struct{ Path string }
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	for _, r := range mod.Replace {
		t.Errorf("go.mod replaces %s: go install github.com/keel-dev/keel/cmd/keel@VERSION would refuse it", r.Old.Path)
	}
	for _, e := range mod.Exclude {
		t.Errorf("go.mod excludes %s: go install github.com/keel-dev/keel/cmd/keel@VERSION would refuse it", e.Path)
	}
}

// goIn runs the go command in dir, outside any workspace, without cgo as
// the README's install line does, and with make build's compile flags:
// they change no module resolution, and keel then compiles once for
// this build and goBuild's.
func goIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod "+buildFlags, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
