package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent/llmtest"
	"github.com/keel-dev/keel/ui"
)

// TestResumedTranscriptInTmux makes a session with a denied call, a failed
// command and a checkpoint in the real binary, quits, and resumes it with
// -c: the transcript shows them as they were shown live (issue 18 item 2),
// and the failed command's preview is its error line (item 6).
func TestResumedTranscriptInTmux(t *testing.T) {
	t.Parallel() // waits on processes: overlaps the package's other tests
	failing := `echo first line; echo "error: the build broke"; exit 3`
	srv := llmtest.Start(t, llmtest.Rounds(
		llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"rm -rf build"}`}),
		llmtest.ToolRound(llmtest.Call{Name: "run_command", Args: `{"command":"echo first line; echo \"error: the build broke\"; exit 3"}`}),
		llmtest.Round{Text: "Checkpoint: the clean was denied and the build broke.", FinishReason: "stop"},
	))
	home, dir := t.TempDir(), project(t)
	env := []string{"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CONFIG_HOME=" + filepath.Join(home, "cfg"),
		"OPENAI_BASE_URL=" + srv.URL(), "OPENAI_API_KEY=sk-tmux", "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}
	tm := startTmux(t, env, dir, "--reflection-cadence", "2")
	tm.waitFor("Ask keel")
	tm.keys("clean and build", "Enter")
	tm.waitFor("Allow run_command?", "rm -rf build")
	tm.keys("d")
	tm.waitFor("reason for the model")
	tm.keys("not now", "Enter") // the second command runs without asking: it only echoes
	tm.waitFor("Checkpoint: the clean was denied and the build broke.")
	tm.waitTitle(ui.TitleReady)
	live := tm.screen()
	quit(t, tm)

	tm = startTmux(t, env, dir, "-c")
	tm.waitTitle(ui.TitleReady)
	resumed := tm.waitFor("› clean and build", "⊘ run_command rm -rf build  denied", "reason: permission denied: not now",
		"· denied run_command: not now", "✗ run_command "+failing[:20], "exit 3 · ", "error: the build broke",
		"checkpoint  at tool call 2", "answer:")
	for _, bad := range []string{"› [Checkpoint", "✓ run_command", "0ms"} {
		if strings.Contains(resumed, bad) {
			t.Errorf("the resumed screen shows %q:\n%s", bad, resumed)
		}
	}
	if liveCard, resumedCard := cardOf(live), cardOf(resumed); liveCard == "" || liveCard != resumedCard {
		t.Errorf("the checkpoint card differs from the live one:\nlive:\n%s\nresumed:\n%s", liveCard, resumedCard)
	}
	quit(t, tm)
}

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

func quit(t *testing.T, tm *tmux) {
	t.Helper()
	tm.keys("C-c")
	tm.waitFor("again to quit")
	tm.keys("C-c")
	if !tm.exited(10 * time.Second) {
		t.Fatalf("keel did not quit:\n%s", tm.screen())
	}
}
