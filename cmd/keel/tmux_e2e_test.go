package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// tmux drives the real binary in a terminal, as a person would.
type tmux struct {
	t       *testing.T
	session string
}

// tmuxEnv is the environment of keel in a tmux e2e test: a home of its
// own, the fake server, a colour terminal.
func tmuxEnv(home string, srv *llmtest.Server) []string {
	return []string{"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CONFIG_HOME=" + filepath.Join(home, "cfg"),
		"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=sk-tmux", "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}
}

func startTmux(t *testing.T, env []string, dir string, args ...string) *tmux {
	t.Helper()
	return startTmuxSized(t, 120, 40, env, dir, args...)
}

// startTmuxSized starts keel in a terminal of w columns and h rows.
func startTmuxSized(t *testing.T, w, h int, env []string, dir string, args ...string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (CI installs it)")
	}
	tm := &tmux{t: t, session: fmt.Sprintf("keel-e2e-%d", time.Now().UnixNano())}
	shell := "cd " + dir + " && exec env " + strings.Join(env, " ") + " " + keelBinary(t) + " " + strings.Join(args, " ")
	tm.run("new-session", "-d", "-s", tm.session, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), shell)
	t.Cleanup(func() { _ = exec.Command("tmux", "kill-session", "-t", tm.session).Run() })
	return tm
}

func (tm *tmux) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", args...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (tm *tmux) keys(keys ...string) {
	tm.run(append([]string{"send-keys", "-t", tm.session}, keys...)...)
}

func (tm *tmux) screen() string { return tm.run("capture-pane", "-p", "-t", tm.session) }

// waitFor polls the screen until every text shows; the deadline only keeps
// a broken run from hanging.
func (tm *tmux) waitFor(texts ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		s := tm.screen()
		missing := ""
		for _, txt := range texts {
			if !strings.Contains(s, txt) {
				missing = txt
				break
			}
		}
		if missing == "" {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("screen never showed %q:\n%s", missing, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitTitle polls the pane's title, which keel sets from its state
// (ui.TitleReady once nothing is in flight), until it is want.
func (tm *tmux) waitTitle(want string) {
	tm.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		got := strings.TrimSpace(tm.run("display-message", "-p", "-t", tm.session, "#{pane_title}"))
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the title never became %q (it is %q):\n%s", want, got, tm.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exited waits for keel's pane to close; the deadline only keeps a broken
// run from hanging.
func (tm *tmux) exited(within time.Duration) bool {
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if !tm.alive() {
			return true
		}
	}
	return false
}

func (tm *tmux) alive() bool {
	return exec.Command("tmux", "has-session", "-t", tm.session).Run() == nil
}

func TestTUIEndToEndInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "update_plan", Args: `{"goal":"print hello","strategy":"read then edit","steps":[{"title":"read main.go","status":"active"},{"title":"edit main.go","status":"pending"}]}`}),
		llmtest.ToolRound(llmtest.Call{Name: "read_file", Args: `{"path":"main.go"}`}),
		llmtest.Round{Text: "Task: print hello; next the edit.", ToolCalls: []llmtest.Call{{Name: "edit_file", Args: `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { println(\"hello\") }"}`}}},
		llmtest.ToolRound(llmtest.Call{Name: "update_plan", Args: `{"goal":"print hello","strategy":"read then edit","steps":[{"title":"read main.go","status":"completed"},{"title":"edit main.go","status":"completed"}]}`}),
		llmtest.Round{Text: "Edited main.go to print hello.", FinishReason: "stop"},
		// the verify guard asks once about the unchecked edit
		llmtest.Round{Text: "No check applies: the change is one println.", FinishReason: "stop"},
		llmtest.Round{Text: "a long answer that never ends", TextChunk: 4, Hang: true, HangAfter: 3},
	))
	home, dir := t.TempDir(), project(t)
	env := tmuxEnv(home, srv)
	tm := startTmux(t, env, dir, "--reflection-cadence", "2")
	tm.waitFor("Ask keel")
	tm.waitTitle(ui.TitleReady)

	tm.keys("make main print hello", "Enter")
	tm.waitFor("Allow edit_file?", "print hello", "read main.go", "checkpoint")
	tm.waitTitle(ui.TitleAsking)
	tm.keys("a")
	tm.waitFor("Edited main.go to print hello.", "unverified edits", "No check applies")
	tm.waitTitle(ui.TitleReady) // the task has ended: nothing is in flight
	if data, _ := os.ReadFile(filepath.Join(dir, "main.go")); !strings.Contains(string(data), `println("hello")`) {
		t.Fatalf("the approved edit did not land: %s", data)
	}

	tm.keys("now something slow", "Enter")
	tm.waitFor("a long")
	tm.waitTitle(ui.TitleWorking)
	tm.keys("Escape")
	tm.waitFor("cancelled")
	tm.waitTitle(ui.TitleReady)

	tm.keys("C-c")
	tm.waitFor("again to quit") // the first ctrl+c was taken
	tm.keys("C-c")
	if !tm.exited(time.Minute) {
		t.Fatalf("keel did not quit on ctrl+c twice:\n%s", tm.screen())
	}
	assertLogged(t, home, dir, "make main print hello")
}

// TestTUIMentionAndShellInTmux types an @ mention and a !command: the file
// goes with the prompt, the command's output with the next one.
func TestTUIMentionAndShellInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.Round{Text: "Read the readme."}, llmtest.Round{Text: "Saw the output."}))
	home, dir := t.TempDir(), project(t)
	env := tmuxEnv(home, srv)
	tm := startTmux(t, env, dir)
	tm.waitFor("Ask keel")
	tm.keys("summarise @READ")
	tm.waitFor("› README.md")
	tm.keys("Tab", "Enter")
	tm.waitFor("with README.md (7 B)", "Read the readme.")
	tm.waitTitle(ui.TitleReady)
	tm.keys("!echo from-the-shell", "Enter")
	tm.waitFor("! echo from-the-shell", "output goes with your next prompt")
	tm.waitTitle(ui.TitleReady)
	tm.keys("and now?", "Enter")
	tm.waitFor("Saw the output.")
	tm.waitTitle(ui.TitleReady) // before it, ctrl+c cancels the finishing task instead
	reqs := srv.Requests()
	last := func(i int) string { m := reqs[i].Messages; return m[len(m)-1].Content }
	if len(reqs) != 2 || !strings.Contains(last(0), "<file path=\"README.md\">\n# demo\n</file>") ||
		!strings.Contains(last(1), "<user_command_output command=\"echo from-the-shell\" exit_code=\"0\">\nfrom-the-shell") {
		t.Fatalf("%d requests; the prompts did not carry the file and the output:\n%s", len(reqs), tm.screen())
	}
	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	if !tm.exited(time.Minute) {
		t.Fatalf("keel did not quit:\n%s", tm.screen())
	}
}

// assertLogged checks the datalog lists a session that began with prompt.
func assertLogged(t *testing.T, home, dir, prompt string) {
	t.Helper()
	out, errOut, code := runKeelHome(t, home, nil, dir, "", "log", "--json")
	if code != 0 {
		t.Fatalf("keel log: %d %s", code, errOut)
	}
	var list []struct {
		FirstPrompt string `json:"first_prompt"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || list[0].FirstPrompt != prompt {
		t.Fatalf("log = %v %s", err, out)
	}
}
