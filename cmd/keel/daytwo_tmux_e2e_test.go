package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// startTmuxShell runs keel in a w×h tmux window from a shell that stays
// after keel exits, so what keel left in the terminal can be read.
func startTmuxShell(t *testing.T, w, h int, env []string, dir string, args ...string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (CI installs it)")
	}
	tm := &tmux{t: t, session: fmt.Sprintf("keel-day2-%d", time.Now().UnixNano())}
	shell := "cd " + dir + " && env " + strings.Join(env, " ") + " " + keelBinary(t) + " " + strings.Join(args, " ") +
		"; echo ==keel exited $?==; sleep 120"
	tm.run("new-session", "-d", "-s", tm.session, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), shell)
	t.Cleanup(func() { _ = exec.Command("tmux", "kill-session", "-t", tm.session).Run() })
	return tm
}

// quitSized quits keel with ctrl+c twice and waits for the shell's line.
func quitSized(tm *tmux) string {
	tm.waitTitle(ui.TitleReady) // a ctrl+c before it cancels the task
	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	return tm.waitFor("==keel exited 0==")
}

// A checkpoint that falls after more calls than the cadence says why
// (issue 32: "checkpoint after 4 tool calls (cadence 3)" read as a bug),
// at 80×24 and 120×40.
func TestCheckpointSaysWhyInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			read := func(path string) llmtest.Call {
				return llmtest.Call{Name: "read_file", Args: `{"path":"` + path + `"}`}
			}
			srv := llmtest.Start(t, llmtest.Rounds(llmtest.ToolRound(read("main.go"), read("README.md"), read("main.go"), read("README.md")),
				llmtest.TextRound("Read both files.")))
			home, dir := t.TempDir(), project(t)
			tm := startTmuxShell(t, sz[0], sz[1], tmuxEnv(home, srv), dir, "--reflection-cadence", "3")
			tm.waitFor("Ask keel")
			tm.keys("read the files", "Enter")
			tm.waitFor("Read both files.")
			tm.waitTitle(ui.TitleReady)
			tm.keys("Home")
			tm.waitFor("keel takes stock every 3 tool calls", "this one came after 4: due at call 3, the round's calls went on to call 4")
			quitSized(tm)
		})
	}
}

// The permission notes of a resumed session say how each call was
// allowed, as they did live (issue 32: both said "allowed run_command"):
// answered at 120×40, resumed at 80×24.
func TestResumedPermissionNotesInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"touch a.txt"}`}),
		llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"mkdir out"}`}),
		llmtest.TextRound("Made a.txt and out."),
	))
	home, dir := t.TempDir(), project(t)
	env := tmuxEnv(home, srv)
	tm := startTmuxShell(t, 120, 40, env, dir)
	tm.waitFor("Ask keel")
	tm.keys("make them", "Enter")
	tm.waitFor("Allow run_command?", "touch a.txt")
	tm.keys("a")
	tm.waitFor("Allow run_command?", "mkdir out")
	tm.keys("s")
	tm.waitFor("Made a.txt and out.")
	tm.waitTitle(ui.TitleReady)
	live := tm.waitFor("· allowed run_command once", "· allowed for this session: run_command: mkdir")
	quitSized(tm)

	tm = startTmuxShell(t, 80, 24, env, dir, "-c")
	tm.waitTitle(ui.TitleReady)
	resumed := tm.waitFor("· allowed run_command once", "· allowed for this session: run_command: mkdir", "Made a.txt and out.")
	if lineOf(live, "allowed for this session") != lineOf(resumed, "allowed for this session") {
		t.Errorf("the session grant's note differs:\nlive:    %q\nresumed: %q", lineOf(live, "allowed for this session"), lineOf(resumed, "allowed for this session"))
	}
	quitSized(tm)
}

// lineOf is the line of screen that holds text, trimmed.
func lineOf(screen, text string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, text) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// The demo's banner names the model the status bar names (issue 32: the
// banner said openai/gpt-4.1-mini), at 80×24 and 120×40.
func TestDemoBannerInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			home := t.TempDir()
			env := []string{"HOME=" + home, "XDG_DATA_HOME=" + home + "/data", "XDG_CONFIG_HOME=" + home + "/cfg", "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}
			tm := startTmuxShell(t, sz[0], sz[1], env, home, "--demo")
			screen := tm.waitFor("the demo model fixes a failing test")
			if banner := lineOf(screen, "· demo model"); !strings.Contains(banner, "demo model (scripted, no LLM)") || strings.Contains(screen, "gpt-4.1") {
				t.Fatalf("the banner and the status bar should name the demo model alike:\n%s", screen)
			}
			quitSized(tm)
		})
	}
}

// keel log's table fits the terminal: at 80 columns each session is one
// line, cut with "…" (a new user's trial: every row wrapped in two); at
// 120 too. A pipe gets whole lines (keellog's tests).
func TestLogTableFitsTheTerminalInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.TextRound("Done.")))
	home, dir := t.TempDir(), project(t)
	if _, errOut, code := runKeelHome(t, home, srv, dir, "", "-p", "a prompt long enough to make the table wider than the terminal is"); code != 0 {
		t.Fatalf("keel -p: exit %d: %s", code, errOut)
	}
	for _, w := range []int{80, 120} {
		tm := startTmuxShell(t, w, 24, tmuxEnv(home, srv), dir, "log")
		screen := tm.waitFor("==keel exited 0==")
		lines := strings.Split(screen, "\n")
		if !strings.HasPrefix(lines[0], "ID ") || !strings.HasSuffix(strings.TrimSpace(lines[1]), "…") || !strings.HasPrefix(lines[2], "==keel exited") {
			t.Errorf("at %d columns the table should be a header and one cut row:\n%s", w, screen)
		}
	}
}
