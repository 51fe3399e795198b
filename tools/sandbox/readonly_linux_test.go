package sandbox

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// readOnlyWorld is a workspace with a file, a directory outside it with
// a secret, and the read-only spec for the workspace.
type readOnlyWorld struct {
	ws, outside string
	spec        Spec
}

func newReadOnlyWorld(t *testing.T) readOnlyWorld {
	t.Helper()
	if err := CheckReadOnly(); err != nil {
		t.Skipf("no read-only sandbox here: %v", err)
	}
	w := readOnlyWorld{ws: t.TempDir(), outside: t.TempDir()}
	mustWrite(t, filepath.Join(w.ws, "file.txt"), "inside\n", 0o644)
	mustWrite(t, filepath.Join(w.ws, "run.sh"), "#!/bin/sh\necho ran\n", 0o755)
	mustWrite(t, filepath.Join(w.outside, "secret"), "secret\n", 0o644)
	w.spec = ReadOnly(w.ws, nil, os.Getenv)
	return w
}

func mustWrite(t *testing.T, p, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

// modes are the two ways a read-only command runs: from a confined
// thread of this process, and through the helper.
func modes(t *testing.T, test func(t *testing.T, r *Runner)) {
	t.Run("in-process", func(t *testing.T) {
		if err := InProcess(); err != nil {
			t.Skipf("no in-process sandbox here: %v", err)
		}
		test(t, &Runner{})
	})
	t.Run("helper", func(t *testing.T) { test(t, &Runner{HelperOnly: true}) })
}

func TestReadOnlySandboxAllowsReading(t *testing.T) { modes(t, testReadOnlyAllowsReading) }

func testReadOnlyAllowsReading(t *testing.T, r *Runner) {
	w := newReadOnlyWorld(t)
	for _, script := range []string{
		"cat file.txt", "ls -la /usr/bin >/dev/null", "grep -r inside .", "head -c 10 /etc/hostname >/dev/null || true",
		"echo tmp > \"$TMPDIR/x\" && cat \"$TMPDIR/x\"", "echo x > /dev/null", "ls /proc/self/fd >/dev/null",
		"cat <(echo substituted)", "sort file.txt | uniq -c", "git --version || true",
	} {
		if out, code := runWith(t, context.Background(), r, w.spec, w.ws, script); code != 0 {
			t.Errorf("%q failed in the read-only sandbox: exit %d: %s", script, code, out)
		}
	}
}

// Each script is what a wrongly allowed command could try; the sandbox
// must stop every one, whatever the analysis said.
func TestReadOnlySandboxStopsWhatTheAnalysisMissed(t *testing.T) {
	modes(t, testReadOnlyStopsMistakes)
}

func testReadOnlyStopsMistakes(t *testing.T, r *Runner) {
	w := newReadOnlyWorld(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	me := strconv.Itoa(os.Getpid())
	tests := map[string]string{
		"write in the workspace":     "echo pwned > file.txt",
		"append in the workspace":    "echo pwned >> file.txt",
		"truncate in the workspace":  "truncate -s 0 file.txt",
		"create in the workspace":    "touch new",
		"remove in the workspace":    "rm file.txt",
		"rename in the workspace":    "mv file.txt moved",
		"write outside":              "echo pwned > " + w.outside + "/new",
		"write the shared /tmp":      "echo pwned > /tmp/keel-ro-escape-" + me,
		"read outside":               "cat " + w.outside + "/secret",
		"list outside":               "ls " + w.outside,
		"run a workspace program":    "./run.sh",
		"tcp to loopback":            "exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo connected",
		"udp to loopback":            "echo x > /dev/udp/127.0.0.1/" + port,
		"signal keel":                "kill -0 " + me,
		"read keel's environment":    "cat /proc/" + me + "/environ",
		"write the terminal":         "echo x > /dev/tty",
		"write shared memory":        "echo x > /dev/shm/keel-ro-" + me,
		"new user namespace":         "unshare -Ur true",
		"home directory":             "ls ~ && test -n \"$(ls -A ~)\"",
		"a nested shell writes":      "bash -c 'echo pwned > file.txt'",
		"a detached child writes":    "setsid -f bash -c 'echo pwned > file.txt' ; sleep 0.1; grep -q pwned file.txt",
		"symlink out of the sandbox": "ln -s " + w.outside + "/secret $TMPDIR/l && cat $TMPDIR/l",
	}
	for name, script := range tests {
		t.Run(name, func(t *testing.T) {
			if name == "signal keel" && ABI() < 6 {
				t.Skipf("Landlock ABI %d does not scope signals (6 does)", ABI())
			}
			if out, code := runWith(t, context.Background(), r, w.spec, w.ws, script); code == 0 {
				t.Errorf("%q succeeded in the read-only sandbox: %s", script, out)
			}
		})
	}
	select {
	case <-accepted:
		t.Error("a read-only command connected to the loopback listener")
	case <-time.After(10 * time.Millisecond): // the connects above ran before; this only collects
	}
	if b, _ := os.ReadFile(filepath.Join(w.ws, "file.txt")); string(b) != "inside\n" {
		t.Errorf("the workspace file changed: %q", b)
	}
	if ents, _ := os.ReadDir(w.outside); len(ents) != 1 {
		t.Errorf("entries appeared outside: %v", ents)
	}
	if _, err := os.Stat("/tmp/keel-ro-escape-" + me); err == nil {
		os.Remove("/tmp/keel-ro-escape-" + me)
		t.Error("a read-only command wrote into /tmp")
	}
}

// The private temporary directory is gone after the command.
func TestReadOnlyTempDirIsRemoved(t *testing.T) {
	w := newReadOnlyWorld(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Exe: exe, ReadOnlySpec: &w.spec}
	cmd, done, err := r.ReadOnlyCommand(context.Background(), []string{"bash", "-c", "echo $TMPDIR; touch $TMPDIR/left"})
	if err != nil {
		t.Fatal(err)
	}
	cmd.Dir = w.ws
	b, err := cmd.Output()
	done()
	dir := strings.TrimSpace(string(b))
	if err != nil || !strings.Contains(dir, "keel-ro-") {
		t.Fatalf("%v, %q", err, b)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("the command's temporary directory %s outlived it", dir)
	}
}

// TestReadOnlyCommandKeepsOnlyReadingCaps: run as root, a command keel
// runs without asking keeps only the capabilities that read, so a
// mistaken auto-allow cannot load a module, reboot or set the clock.
func TestReadOnlyCommandKeepsOnlyReadingCaps(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root's commands hold capabilities to drop")
	}
	modes(t, func(t *testing.T, r *Runner) {
		w := newReadOnlyWorld(t)
		out, code := runWith(t, context.Background(), r, w.spec, w.ws, "grep -E '^Cap(Bnd|Eff|Prm):' /proc/self/status")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, out)
		}
		want := strconv.FormatUint(1<<unix.CAP_DAC_OVERRIDE|1<<unix.CAP_DAC_READ_SEARCH, 16)
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			k, v, _ := strings.Cut(l, ":")
			if got := strings.TrimLeft(strings.TrimSpace(v), "0"); got != want {
				t.Errorf("%s = %s, want only the reading capabilities %s", k, strings.TrimSpace(v), want)
			}
		}
		if out, code := runWith(t, context.Background(), r, w.spec, w.ws, "cat file.txt"); code != 0 || out != "inside\n" {
			t.Errorf("reading failed: exit %d: %q", code, out)
		}
	})
}
