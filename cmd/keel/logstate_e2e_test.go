package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/datalog"
)

// keel log whatever a first run that was killed during set-up left: an
// empty file (created before SQLite ran), or a database switched to WAL
// with no schema yet. keel log sets it up and lists nothing.
func TestLogAfterInterruptedFirstRun(t *testing.T) {
	tests := []struct {
		name  string
		leave func(t *testing.T, path string)
	}{
		{"empty file", func(t *testing.T, path string) {
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"WAL, no schema", func(t *testing.T, path string) {
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec("PRAGMA journal_mode=WAL"); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			path := filepath.Join(home, "data", "keel", "keel.db")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			tt.leave(t, path)
			for range 2 { // and again: the first call set it up
				out, stderr, code := runKeelHome(t, home, nil, project(t), "", "log")
				if code != 0 || !strings.Contains(out, "no sessions logged yet") {
					t.Fatalf("keel log: exit %d, stdout %q, stderr %q", code, out, stderr)
				}
			}
		})
	}
}

// keel log on a datalog it may not read, or whose directory it may not
// write (SQLite's -wal and -shm live there), says which in one sentence
// instead of "it may not be a keel database". As root the runs are made
// as nobody, since root may read anything.
func TestLogUnreadableDatalog(t *testing.T) {
	tests := []struct {
		name          string
		dirMode, mode os.FileMode
		want          []string
	}{
		{"directory unreadable", 0o000, 0o600, []string{"cannot be read (permission denied)", "give your user access"}},
		{"directory read-only", 0o500, 0o600, []string{"must be writable by your user", "-wal and -shm"}},
		{"file unreadable", 0o700, 0o000, []string{"the file cannot be read (permission denied)"}},
	}
	run := asUnprivileged(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := shareableDir(t)
			path := filepath.Join(home, "data", "keel", "keel.db")
			db, err := datalog.Open(path, datalog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			chownAll(t, home)
			if err := os.Chmod(path, tt.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(filepath.Dir(path), tt.dirMode); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(filepath.Dir(path), 0o700); _ = os.Chmod(path, 0o600) })
			stderr, code := run(home, "log")
			if code == 0 {
				t.Fatalf("keel log exited 0 on an unusable datalog; stderr %q", stderr)
			}
			if strings.Contains(stderr, "not a keel database") {
				t.Errorf("stderr blames the file's format: %q", stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q: %q", w, stderr)
				}
			}
			if n := strings.Count(strings.TrimSpace(stderr), "\n"); n > 0 {
				t.Errorf("stderr is %d lines, want one: %q", n+1, stderr)
			}
		})
	}
}

// nobody is the user the permission tests run keel as when the tests run
// as root.
const nobody = 65534

// asUnprivileged returns a runner of keel that permissions bind: keel
// itself, or as root keel as nobody through setpriv (skipped without it).
func asUnprivileged(t *testing.T) func(home string, args ...string) (string, int) {
	t.Helper()
	bin := keelBinary(t)
	var prefix []string
	if os.Geteuid() == 0 {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("running as root without setpriv: permissions cannot be tested")
		}
		real := filepath.Join(filepath.Dir(bin), "keel-real") // the binary behind keelBinary's script
		if os.Getenv("KEEL_E2E_BINARY") != "" {
			real = bin
		}
		bin = shareableCopy(t, real)
		prefix = []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"}
	}
	return func(home string, args ...string) (string, int) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		argv := append(append(prefix, bin), args...)
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir = home
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"),
			"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_DATA_HOME=" + filepath.Join(home, "data")}
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("run keel: %v", err)
		}
		return errb.String(), cmd.ProcessState.ExitCode()
	}
}

// shareableDir is a temp dir nobody may enter (t.TempDir's are 0700).
func shareableDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "keel-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shareableCopy copies the binary at src where nobody may run it.
func shareableCopy(t *testing.T, src string) string {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	dst := filepath.Join(shareableDir(t), "keel")
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// chownAll gives dir's tree to nobody when the tests run as root.
func chownAll(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, nobody, nobody)
	})
	if err != nil {
		t.Fatal(err)
	}
}
