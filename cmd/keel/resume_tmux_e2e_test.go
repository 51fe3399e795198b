package main

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// TestResumedTranscriptInTmux makes a session with a denied call, a failed
// command and a checkpoint in the real binary, quits, and resumes it with
// -c: the transcript shows them as they were shown live (issue 18 item 2),
// and the failed command's preview is its error line (item 6). The screen
// is 120×40: the beginning shows after home, the rest at the end.
func TestResumedTranscriptInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	failing := `echo first line; echo "error: the build broke"; exit 3`
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"rm -rf build"}`}),
		llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"echo first line; echo \"error: the build broke\"; exit 3"}`}),
		llmtest.Round{Text: "Checkpoint: the clean was denied and the build broke.",
			ToolCalls: []llmtest.Call{{Name: "write_file", Args: `{"path":"notes.txt","content":"the build broke\n"}`}}},
		llmtest.Round{Text: "Wrote notes.txt.", FinishReason: "stop"},
	))
	home, dir := t.TempDir(), project(t)
	env := tmuxEnv(home, srv)
	tm := startTmux(t, env, dir, "--reflection-cadence", "2")
	tm.waitFor("Ask keel")
	tm.keys("clean and build", "Enter")
	tm.waitFor("Allow run_command?", "rm -rf build")
	tm.keys("d")
	tm.waitFor("reason for the model")
	tm.keys("not now", "Enter") // the second command runs without asking: it only echoes
	tm.waitFor("Allow write_file?")
	tm.keys("a")
	tm.waitFor("Wrote notes.txt.")
	tm.waitTitle(ui.TitleReady)
	liveEnd := tm.screen()
	tm.keys("Home")
	liveTop := tm.waitFor("› clean and build")
	quit(t, tm)

	tm = startTmux(t, env, dir, "-c")
	tm.waitTitle(ui.TitleReady)
	resumedEnd := tm.waitFor("✓ write_file notes.txt", "+++ b/notes.txt", "+the build broke",
		"· allowed write_file", "Wrote notes.txt.")
	tm.keys("Home")
	resumedTop := tm.waitFor("› clean and build", "⊘ run_command rm -rf build  denied", "reason: permission denied: not now",
		"· denied run_command: not now", "✗ run_command "+failing[:20], "exit 3 · ", "error: the build broke",
		"checkpoint  at tool call 2", "not answered: the next round brought no reflect call")
	for _, bad := range []string{"› [Checkpoint", "✓ run_command"} {
		if strings.Contains(resumedTop+resumedEnd, bad) {
			t.Errorf("the resumed screen shows %q:\n%s\n%s", bad, resumedTop, resumedEnd)
		}
	}
	if zero.MatchString(resumedTop + resumedEnd) { // a call's duration lost on resume ("70ms" is fine)
		t.Errorf("the resumed screen shows a duration of 0ms:\n%s\n%s", resumedTop, resumedEnd)
	}
	for _, c := range []struct{ what, live, resumed string }{
		{"the checkpoint card", cardOf(liveTop), cardOf(resumedTop)},
		{"the write and its diff", blockOf(liveEnd, "✓ write_file"), blockOf(resumedEnd, "✓ write_file")},
	} {
		if c.live == "" || c.live != c.resumed {
			t.Errorf("%s differs from the live one:\nlive:\n%s\nresumed:\n%s", c.what, c.live, c.resumed)
		}
	}
	quit(t, tm)
}

// TestResumedLongSessionInTmux resumes a session longer than the TUI's
// first screen reads (resumeTailRounds): the last answer shows at once,
// and the rounds before the tail, loaded after the first frame, are there
// when the user goes to the top.
func TestResumedLongSessionInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	const rounds = resumeTailRounds + 5
	srv := llmtest.Start(t, llmtest.Script{Handler: func(_ llmtest.RecordedRequest, n int) llmtest.Round {
		if n < rounds {
			return llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: fmt.Sprintf(`{"command":"echo step %d"}`, n)})
		}
		return llmtest.Round{Text: "All the steps ran.", FinishReason: "stop"}
	}})
	home, dir := t.TempDir(), project(t)
	writeUserConfig(t, home, "max_turns = 0\nmax_tool_calls = 0\n")
	if _, stderr, code := runKeelHome(t, home, srv, dir, "", "-p", "run the steps one by one"); code != 0 {
		t.Fatalf("the headless run exited %d: %s", code, stderr)
	}
	tm := startTmux(t, tmuxEnv(home, srv), dir, "-c")
	tm.waitFor("All the steps ran.")
	tm.waitTitle(ui.TitleReady)
	tm.keys("Home")
	tm.waitFor("› run the steps one by one", "echo step 0")
	quit(t, tm)
}

// A resumed session whose history cannot be read (a message's JSON is
// broken in the datalog): keel -c refuses at start with exit 2 and the
// reason, headless or not, instead of going on without the history.
func TestResumeWithUnreadableHistory(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	srv := llmtest.Start(t, llmtest.Rounds(llmtest.Round{Text: "First answer.", FinishReason: "stop"}))
	home, dir := t.TempDir(), project(t)
	if _, stderr, code := runKeelHome(t, home, srv, dir, "", "-p", "the first prompt"); code != 0 {
		t.Fatalf("the first run exited %d: %s", code, stderr)
	}
	conn, err := sql.Open("sqlite", filepath.Join(home, "data", "keel", "keel.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(`UPDATE messages SET json = '{"role":' WHERE seq = 1`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	for _, args := range [][]string{{"-p", "go on", "-c"}, {"-c"}} {
		_, stderr, code := runKeelHome(t, home, srv, dir, "", args...)
		if code != 2 || !strings.Contains(stderr, "cannot be resumed") || !strings.Contains(stderr, "keel without -c starts a new session") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("keel %q exited %d with %q; want 2, the reason and what to do, in one line", args, code, stderr)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests reached the model; want only the first run's", n)
	}
}

// zero is a duration of 0ms, not the end of 70ms.
var zero = regexp.MustCompile(`(^|[^0-9.])0ms`)

// cardOf is the checkpoint card on a screen, without the selection marker.
func cardOf(screen string) string {
	var card []string
	in := false
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimPrefix(strings.TrimPrefix(l, "▎"), " ")
		in = in || strings.HasPrefix(strings.TrimSpace(l), "╭")
		if in {
			card = append(card, strings.TrimRight(l, " "))
		}
		if strings.HasPrefix(strings.TrimSpace(l), "╰") {
			break
		}
	}
	return strings.Join(card, "\n")
}

// blockOf is the entry on a screen whose first line holds head, up to the
// blank line after it, without the selection marker.
func blockOf(screen, head string) string {
	var block []string
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimRight(strings.TrimPrefix(strings.TrimPrefix(l, "▎"), " "), " ")
		if len(block) == 0 && !strings.Contains(l, head) {
			continue
		}
		if l == "" {
			break
		}
		block = append(block, l)
	}
	return strings.Join(block, "\n")
}

func quit(t *testing.T, tm *tmux) {
	t.Helper()
	tm.waitTitle(ui.TitleReady) // a ctrl+c before it cancels the task
	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	if !tm.exited(time.Minute) {
		t.Fatalf("keel did not quit:\n%s", tm.screen())
	}
}
