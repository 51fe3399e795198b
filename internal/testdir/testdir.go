// Package testdir gives tests a directory outside every temp directory:
// keel allows writes to temp directories (the sandbox, --yolo), so a test
// that checks a write outside the workspace was refused needs one.
package testdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Outside makes a fresh directory outside the temp directories (under the
// package's directory when the checkout is not in one, else under $HOME),
// removed when the test ends, and returns its absolute, symlink-free path.
// It skips the test when there is no such place.
func Outside(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp(parent(t), ".keel-test-outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	abs, err := filepath.Abs(d)
	if err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs
}

// parent is a writable directory outside every temp directory.
func parent(t testing.TB) string {
	t.Helper()
	tmp, _ := filepath.EvalSymlinks(os.TempDir())
	for _, d := range []string{".", os.Getenv("HOME")} {
		abs, err := filepath.Abs(d)
		if err != nil || d == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil && !strings.HasPrefix(real+"/", tmp+"/") && !strings.HasPrefix(real+"/", "/tmp/") {
			return abs
		}
	}
	t.Skip("no writable directory outside the temp directories")
	return ""
}
