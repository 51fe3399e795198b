package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readmeFigure finds the number of MB (or minutes) re captures in the
// README.
func readmeFigure(t *testing.T, readme []byte, re string) float64 {
	t.Helper()
	m := regexp.MustCompile(re).FindSubmatch(readme)
	if m == nil {
		t.Fatalf("README.md does not say %s", re)
	}
	n, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The README's figures are what a build gives (issue 32: it called a
// 27 MB binary small, then named 27 MB for a 36 MB one): the make build
// figure is within 15% of the e2e tests' build (goBuild: make build's
// flags), and go install's keeps the symbol tables, so make build's is
// about 72% of it (36.1 of 50.4 MB). It says make test runs with the
// race detector and roughly how long it takes.
func TestReadmeFigures(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	install := readmeFigure(t, readme, "about\\s+(\\d+)\\s+MB\\s+from\\s+`go install`")
	stripped := readmeFigure(t, readme, "about\\s+(\\d+)\\s+MB\\s+from\\s+`make build`")
	if r := stripped / install; r < 0.62 || r > 0.82 {
		t.Errorf("README: make build's %v MB is %.0f%% of go install's %v MB; stripping leaves about 72%%", stripped, 100*r, install)
	}
	readmeFigure(t, readme, `make test +# every test with the race detector: about (\d+) minutes`)
	if os.Getenv("KEEL_E2E_BINARY") != "" {
		t.Skip("KEEL_E2E_BINARY is not the build the README describes")
	}
	fi, err := os.Stat(filepath.Join(filepath.Dir(keelBinary(t)), "keel-real"))
	if err != nil {
		t.Fatal(err)
	}
	if mb := float64(fi.Size()) / 1e6; mb < stripped*0.85 || mb > stripped*1.15 {
		t.Errorf("README says make build gives about %v MB; a build with its flags is %.1f MB", stripped, mb)
	}
}

// TestMakefileBuildsAsTheTestsDo: the Makefile's BUILDFLAGS, used by make
// build and by make test's warm-up build, are goBuild's. Were they to
// drift apart, nothing would fail, but a cold make test would compile
// keel twice (~100 s of CPU).
func TestMakefileBuildsAsTheTestsDo(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^BUILDFLAGS\s*:=\s*(.*)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile sets no BUILDFLAGS")
	}
	if string(m[1]) != buildFlags {
		t.Fatalf("the Makefile's BUILDFLAGS are %q; goBuild's are %q", m[1], buildFlags)
	}
	for _, use := range []string{
		"CGO_ENABLED=0 $(GO) build -trimpath $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/keel",
		"CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -o /dev/null ./cmd/keel &",
	} {
		if !strings.Contains(string(mk), use) {
			t.Errorf("the Makefile no longer runs %q", use)
		}
	}
}
