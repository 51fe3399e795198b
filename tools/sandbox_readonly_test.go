package tools

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/tools/sandbox"
)

// mistakes are classifier mistakes injected on purpose: programs keel's
// analysis takes for read-only readers (cat, ls, wc) replaced, through
// PATH, by ones that write the workspace, read outside it, or connect to
// a loopback listener. The policy allows them without asking; only the
// read-only sandbox stands between them and their effect.
type mistakes struct {
	ws      *Workspace
	secret  string // a file outside the workspace
	port    string
	env     []string
	conns   chan struct{}
	command map[string]string // class -> the command the model sends
}

func newMistakes(t *testing.T) *mistakes {
	t.Helper()
	ws := newTestWS(t, map[string]string{"canary": "canary\n", "notes.txt": "notes\n"})
	outside, bin := t.TempDir(), t.TempDir()
	mk := &mistakes{ws: ws, secret: filepath.Join(outside, "secret"), conns: make(chan struct{}, 8)}
	writeFileT(t, mk.secret, "outside-secret-value\n")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mk.conns <- struct{}{}
			c.Close()
		}
	}()
	mk.port = strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	fakes := map[string]string{
		"cat": "echo pwned > canary; echo wrote",
		"ls":  "exec /bin/cat " + mk.secret,
		"wc":  "exec 3<>/dev/tcp/127.0.0.1/" + mk.port + " && echo connected",
	}
	for name, body := range fakes {
		writeFileT(t, filepath.Join(bin, name), "#!/bin/bash\n"+body+"\n")
		if err := os.Chmod(filepath.Join(bin, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk.env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "HOME=" + t.TempDir(), fastRaceExit}
	mk.command = map[string]string{"writes": "cat notes.txt", "reads outside": "ls", "connects": "wc -l notes.txt"}
	return mk
}

func writeFileT(t *testing.T, p, body string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run decides and runs command as the agent does: an allowed call runs
// with writes only when the decision was not ReadOnly.
func (mk *mistakes) run(t *testing.T, opts Options, command string) Result {
	t.Helper()
	p := mustPolicy(t, mk.ws, PolicyOptions{})
	raw, _ := json.Marshal(m{"command": command})
	d := p.Decide(NameRunCommand, raw)
	if d.Verdict != Allow || !d.ReadOnly {
		t.Fatalf("%q: %v (read-only %v): %s; the injected mistake needs an allowed read-only command", command, d.Verdict, d.ReadOnly, d.Reason)
	}
	tool, _ := Lookup(New(mk.ws, opts), NameRunCommand)
	res, err := tool.Run(context.Background(), raw)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// escaped reports the effect a class of mistake had, "" for none.
func (mk *mistakes) escaped(class string, res Result) string {
	switch class {
	case "writes":
		if b, _ := os.ReadFile(filepath.Join(mk.ws.Root(), "canary")); string(b) != "canary\n" {
			return "the canary changed"
		}
	case "reads outside":
		if strings.Contains(res.Output, "outside-secret-value") {
			return "the secret outside the workspace was read"
		}
	case "connects":
		select {
		case <-mk.conns:
			return "the loopback listener got a connection"
		case <-time.After(50 * time.Millisecond): // the command has ended; a connect would be queued already
		}
	}
	return ""
}

func TestReadOnlySandboxHoldsWhenTheAnalysisIsWrong(t *testing.T) {
	if err := sandbox.CheckReadOnly(); err != nil {
		t.Skipf("no read-only sandbox here: %v", err)
	}
	// run_command confines read-only commands on a thread of keel's own
	// where it can, through the helper elsewhere: both must hold.
	for mode, helperOnly := range map[string]bool{"in-process": false, "helper": true} {
		t.Run(mode, func(t *testing.T) {
			if err := sandbox.InProcess(); err != nil && !helperOnly {
				t.Skipf("no in-process sandbox here: %v", err)
			}
			mk := newMistakes(t)
			runner := testRunner(t, true, mk.ws.Root())
			runner.HelperOnly = helperOnly
			ro := sandbox.ReadOnly(mk.ws.Root(), nil, func(k string) string {
				if k == "PATH" {
					return strings.TrimPrefix(mk.env[0], "PATH=")
				}
				return os.Getenv(k)
			})
			runner.ReadOnlySpec = &ro
			for class, command := range mk.command {
				t.Run(class, func(t *testing.T) {
					res := mk.run(t, Options{Sandbox: runner, Env: mk.env}, command)
					if why := mk.escaped(class, res); why != "" {
						t.Errorf("%q ran without asking and %s:\n%s", command, why, res.Output)
					}
				})
			}
		})
	}
}

// The same mistakes, run without the sandbox, do escape: the injection
// is real, and the test above fails without the read-only sandbox.
func TestInjectedMistakesEscapeWithoutTheSandbox(t *testing.T) {
	mk := newMistakes(t)
	for class, command := range mk.command {
		res := mk.run(t, Options{Env: mk.env}, command)
		if why := mk.escaped(class, res); why == "" {
			t.Errorf("%s: %q had no effect without the sandbox:\n%s", class, command, res.Output)
		}
	}
}

// run_command's read-only commands, in the foreground and as background
// jobs, start from a confined thread of keel's (their $$ is 1: the first
// process of a pid namespace of their own) unless the runner is
// HelperOnly, and are confined either way.
func TestRunCommandReadOnlyModes(t *testing.T) {
	if err := sandbox.CheckReadOnly(); err != nil {
		t.Skipf("no read-only sandbox here: %v", err)
	}
	const script = `echo "pid $$"; (echo x >> canary) 2>/dev/null || echo denied`
	for mode, helperOnly := range map[string]bool{"in-process": false, "helper": true} {
		t.Run(mode, func(t *testing.T) {
			if err := sandbox.InProcess(); err != nil && !helperOnly {
				t.Skipf("no in-process sandbox here: %v", err)
			}
			ws := newTestWS(t, map[string]string{"canary": "canary\n"})
			runner := testRunner(t, true, ws.Root())
			runner.HelperOnly = helperOnly
			ro := sandbox.ReadOnly(ws.Root(), nil, os.Getenv)
			runner.ReadOnlySpec = &ro
			js := NewJobs(JobsOptions{})
			t.Cleanup(js.StopAll)
			s := &jobSet{t: t, ws: ws, jobs: js, tools: New(ws, Options{Sandbox: runner, Jobs: js, Env: []string{"PATH=" + os.Getenv("PATH"), fastRaceExit}})}
			fg := s.run(NameRunCommand, m{"command": script})
			id := s.start(script)
			bg := ""
			for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
				res := s.run(NameJobOutput, m{"job_id": id, "wait_seconds": 30})
				if bg += res.Output + "\n"; res.Job == nil || !res.Job.Running {
					break
				}
			}
			for what, out := range map[string]string{"foreground": fg.Output, "background": bg} {
				if !strings.Contains(out, "denied") {
					t.Errorf("%s: the command wrote the workspace:\n%s", what, out)
				}
				if inProc := strings.Contains(out, "pid 1\n"); inProc == helperOnly {
					t.Errorf("%s: in-process %v, want %v:\n%q", what, inProc, !helperOnly, out)
				}
			}
		})
	}
}
