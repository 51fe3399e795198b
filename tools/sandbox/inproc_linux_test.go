package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// needInProcess skips where keel cannot confine a thread of its own.
func needInProcess(t *testing.T) readOnlyWorld {
	t.Helper()
	w := newReadOnlyWorld(t)
	if err := InProcess(); err != nil {
		t.Skipf("no in-process sandbox here: %v", err)
	}
	return w
}

// parentAndExe are a live process's parent and program.
func parentAndExe(t *testing.T, pid int) (int, string) {
	t.Helper()
	pp, ok := readPPID(pid)
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if !ok || err != nil {
		t.Fatalf("process %d: %v", pid, err)
	}
	return pp, exe
}

// A read-only command started with Start is this process's own child, in
// a pid namespace of its own; started with cmd.Start, or with HelperOnly,
// or where the namespaces cannot be had, it goes through the helper, as
// confined.
func TestReadOnlyCommandsStartWithoutHelper(t *testing.T) {
	w := needInProcess(t)
	self, _ := os.Executable()
	starts := map[string]struct {
		r       *Runner
		start   func(r *Runner, cmd *exec.Cmd) error
		inProc  bool
		noProbe bool
	}{
		"Start":                 {&Runner{}, (*Runner).Start, true, false},
		"cmd.Start":             {&Runner{}, func(_ *Runner, c *exec.Cmd) error { return c.Start() }, false, false},
		"HelperOnly":            {&Runner{HelperOnly: true}, (*Runner).Start, false, false},
		"no namespaces to have": {&Runner{}, (*Runner).Start, false, true},
	}
	for name, tc := range starts {
		t.Run(name, func(t *testing.T) {
			if tc.noProbe {
				defer func(err error) { inproc.err = err }(inproc.err)
				inproc.err = errors.New("no pid namespace (test)")
			}
			cmd, done := command(t, context.Background(), tc.r, w.spec, []string{"bash", "-c", "read -r line; echo \"$line\" > file.txt"})
			defer done()
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Dir = w.ws
			if err := tc.start(tc.r, cmd); err != nil {
				t.Fatal(err)
			}
			pp, exe := parentAndExe(t, cmd.Process.Pid)
			io.WriteString(in, "pwned\n")
			in.Close()
			if err := cmd.Wait(); err == nil {
				t.Error("the command wrote the workspace")
			}
			if pp != os.Getpid() {
				t.Errorf("the command's parent is %d, not this process (%d)", pp, os.Getpid())
			}
			if helper := exe == self; helper == tc.inProc {
				t.Errorf("the command runs %s; in-process %v", exe, tc.inProc)
			}
		})
	}
}

// roCommand is argv in the read-only profile through r, and its private
// temporary directory, read from the helper's command line that Start
// replaces.
func roCommand(t *testing.T, ctx context.Context, r *Runner, w readOnlyWorld, argv []string) (*exec.Cmd, string, func()) {
	t.Helper()
	cmd, done := command(t, ctx, r, w.spec, argv)
	spec, _, err := parseHelperArgs(cmd.Args[2:])
	if err != nil {
		done()
		t.Fatal(err)
	}
	cmd.Dir = w.ws
	return cmd, spec.TempDir, done
}

// runKeep runs script in the read-only profile in-process and returns its
// output and exit code, with its temporary directory still there; done
// removes it.
func runKeep(t *testing.T, w readOnlyWorld, script string) (out string, code int, tmp string, done func()) {
	t.Helper()
	var buf bytes.Buffer
	r := &Runner{}
	cmd, tmp, done := roCommand(t, context.Background(), r, w, []string{"bash", "-c", script})
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := r.Start(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		done()
		t.Fatal(err)
	}
	return buf.String(), code, tmp, done
}

// hostPID is bash that writes its own pid, as this process sees it, to
// $TMPDIR/pid (its $$ is its pid in the command's namespace).
const hostPID = `read -r p _ < /proc/self/stat; echo $p > "$TMPDIR/pid.tmp"; mv "$TMPDIR/pid.tmp" "$TMPDIR/pid"`

// waitFile is bash that waits for $TMPDIR/pid.
const waitFile = `while [ ! -s "$TMPDIR/pid" ]; do sleep 0.01; done`

func TestInProcessLeftoversAreKilled(t *testing.T) {
	w := needInProcess(t)
	tests := map[string]string{
		"setsid -f":    "setsid -f bash -c '" + hostPID + "; exec sleep 300' </dev/null >/dev/null 2>&1",
		"double fork":  "( (" + hostPID + "; exec sleep 300) & )",
		"nohup &":      "nohup bash -c '" + hostPID + "; exec sleep 300' >/dev/null 2>&1 &",
		"new group":    "set -m; (" + hostPID + "; exec sleep 300) &",
		"grandchild":   "bash -c '(" + hostPID + "; exec sleep 300) & disown'",
		"ignores term": "setsid -f bash -c 'trap \"\" TERM HUP; " + hostPID + "; while :; do sleep 1; done' </dev/null >/dev/null 2>&1",
	}
	for name, script := range tests {
		t.Run(name, func(t *testing.T) {
			out, code, tmp, done := runKeep(t, w, script+"\n"+waitFile)
			defer done()
			if code != 0 {
				t.Fatalf("exit %d: %s", code, out)
			}
			pid := waitPID(t, filepath.Join(tmp, "pid"))
			if !gone(pid) { // the namespace is torn down before its first process can be reaped
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("process %d outlived its command", pid)
			}
		})
	}
}

func TestInProcessCancelAndTimeoutKillEverything(t *testing.T) {
	w := needInProcess(t)
	script := "setsid -f bash -c 'trap \"\" TERM HUP INT; " + hostPID + "; exec sleep 300' </dev/null >/dev/null 2>&1; trap '' TERM INT HUP; sleep 300"
	for _, name := range []string{"cancel", "timeout"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			if name == "timeout" {
				ctx, cancel = context.WithTimeout(context.Background(), time.Second)
			}
			defer cancel()
			r := &Runner{}
			cmd, tmp, done := roCommand(t, ctx, r, w, []string{"bash", "-c", script})
			defer done()
			if err := r.Start(cmd); err != nil {
				t.Fatal(err)
			}
			pid := waitPID(t, filepath.Join(tmp, "pid"))
			if name == "cancel" {
				cancel()
			}
			if err := cmd.Wait(); err == nil || ctx.Err() == nil {
				t.Errorf("the command ended on its own (%v) before it was killed", err)
			}
			if !gone(pid) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("process %d outlived the killed command", pid)
			}
		})
	}
}

// Root's command cannot regain the capabilities that inspect keel, and
// keel keeps them; the command has no new privileges and the filter.
func TestInProcessThreadState(t *testing.T) {
	w := needInProcess(t)
	before := statusField(t, os.Getpid(), "CapBnd")
	out, code := run(t, context.Background(), w.spec, w.ws, "grep -E '^(CapBnd|CapEff|NoNewPrivs|Seccomp):' /proc/self/status")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	f := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		k, v, _ := strings.Cut(l, ":")
		f[k] = strings.TrimSpace(v)
	}
	if f["NoNewPrivs"] != "1" || f["Seccomp"] != "2" {
		t.Errorf("the command runs without no_new_privs or its filter: %v", f)
	}
	bnd, err := strconv.ParseUint(f["CapBnd"], 16, 64)
	if err != nil {
		t.Fatalf("CapBnd %q: %v", f["CapBnd"], err)
	}
	if os.Geteuid() == 0 {
		if want := uint64(1<<unix.CAP_DAC_OVERRIDE | 1<<unix.CAP_DAC_READ_SEARCH); bnd != want {
			t.Errorf("the command's bounding set is %x, want only the reading capabilities %x", bnd, want)
		}
		if eff, _ := strconv.ParseUint(f["CapEff"], 16, 64); eff&^bnd != 0 {
			t.Errorf("the command holds capabilities %x outside its bounding set %x", eff, bnd)
		}
	}
	if after := statusField(t, os.Getpid(), "CapBnd"); after != before {
		t.Errorf("keel's bounding set changed: %s, was %s", after, before)
	}
}

// statusField is a field of /proc/PID/status.
func statusField(t *testing.T, pid int, name string) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, name+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no %s in /proc/%d/status", name, pid)
	return ""
}

// Many commands confined in parallel leave every other thread of keel as
// it was: while they run and after, keel writes files, reads outside the
// workspace and opens sockets, and once they ended no thread of the
// process has no_new_privs, a filter or a smaller bounding set.
func TestOtherThreadsStayUnconfined(t *testing.T) {
	w := needInProcess(t)
	bnd := statusField(t, os.Getpid(), "CapBnd")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	stop := make(chan struct{})
	var free sync.WaitGroup
	for i := range 4 {
		free.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := freeWork(w, ln.Addr().String(), fmt.Sprintf("%d-%d", i, n)); err != nil {
					t.Errorf("keel lost a right while commands were confined: %v", err)
					return
				}
			}
		})
	}
	var cmds sync.WaitGroup
	for range 4 {
		cmds.Go(func() {
			for range 25 {
				out, code := run(t, context.Background(), w.spec, w.ws, "cat file.txt && ! (echo x >> file.txt) 2>/dev/null")
				if code != 0 || out != "inside\n" {
					t.Errorf("a confined command: exit %d, %q", code, out)
					return
				}
			}
		})
	}
	cmds.Wait()
	close(stop)
	free.Wait()
	if err := freeWork(w, ln.Addr().String(), "after"); err != nil {
		t.Errorf("keel lost a right after confined commands: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		tainted := taintedThreads(t, bnd)
		if len(tainted) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("threads of keel are still confined after their commands ended: %v", tainted)
		}
		time.Sleep(10 * time.Millisecond) // confined threads end just after their goroutines
	}
}

// freeWork is what keel does besides commands: write and read a file
// outside the workspace, connect to a listener, listen.
func freeWork(w readOnlyWorld, addr, name string) error {
	p := filepath.Join(w.outside, "keel-"+name)
	if err := os.WriteFile(p, []byte(name), 0o600); err != nil {
		return err
	}
	if _, err := os.ReadFile(filepath.Join(w.outside, "secret")); err != nil {
		return err
	}
	if err := os.Remove(p); err != nil {
		return err
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	c.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	return l.Close()
}

// taintedThreads lists the threads of this process that are confined:
// no_new_privs, a seccomp filter, or a bounding set other than bnd.
func taintedThreads(t *testing.T, bnd string) []string {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		b, err := os.ReadFile("/proc/self/task/" + e.Name() + "/status")
		if err != nil {
			continue // ended meanwhile
		}
		s := string(b)
		if !strings.Contains(s, "\nNoNewPrivs:\t0\n") || !strings.Contains(s, "\nSeccomp:\t0\n") || !strings.Contains(s, "\nCapBnd:\t"+bnd+"\n") {
			out = append(out, e.Name())
		}
	}
	return out
}

// tryCloneEnv makes this test binary, started as a confined command, try
// to make namespaces with clone(2) and print what happened.
const tryCloneEnv = "KEEL_SANDBOX_TEST_CLONE"

// tryClone is the command's side: a made namespace prints "MADE" (the
// program it then runs does not exist).
func tryClone() int {
	for _, f := range []uintptr{newPID, newUserPID, syscall.CLONE_NEWUSER, syscall.CLONE_NEWNS, syscall.CLONE_NEWNET,
		syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS, newUserPID | syscall.CLONE_NEWNET} {
		_, err := syscall.ForkExec("/nonexistent/keel", []string{"keel"}, &syscall.ProcAttr{Sys: &syscall.SysProcAttr{Cloneflags: f}})
		if errors.Is(err, syscall.ENOENT) {
			fmt.Printf("%#x: MADE\n", f)
		} else {
			fmt.Printf("%#x: %v\n", f, err)
		}
	}
	return 0
}

// The filter lets keel's confined thread make the command's namespaces;
// the command cannot make them, nor any other.
func TestCommandCannotMakeNamespaces(t *testing.T) {
	w := needInProcess(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w.spec.Runnable = append(w.spec.Runnable, filepath.Dir(exe))
	modes(t, func(t *testing.T, r *Runner) {
		cmd, _, done := roCommand(t, context.Background(), r, w, []string{exe})
		defer done()
		var out bytes.Buffer
		cmd.Env = append(os.Environ(), tryCloneEnv+"=1")
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := r.Start(cmd); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 7 || strings.Contains(out.String(), "MADE") {
			t.Errorf("a confined command made namespaces (or did not try):\n%s", out.String())
		}
		t.Logf("\n%s", out.String())
	})
}
