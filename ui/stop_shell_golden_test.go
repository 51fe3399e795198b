package ui

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/shellcmd"
)

// TestGoldenStopAndShell keeps two screens at the sizes people use: a task
// the first ctrl+c stopped (no quit armed), and a !command the user ran as
// their own (its note, its output, one footer).
func TestGoldenStopAndShell(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("stopped_%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := newTestModel(t, sz[0], sz[1])
			prompt(m, "Refactor the retry loop")
			send(m, events(agent.StateChanged{From: agent.StateIdle, To: agent.StateThinking}, agent.TextDelta{Text: "Looking at the loop first."}))
			send(m, press("ctrl+c"), events(agent.StateChanged{From: agent.StateThinking, To: agent.StateCancelled},
				agent.TaskStopped{Reason: agent.StopCancelled}))
			golden(t, m, fmt.Sprintf("stopped_%dx%d", sz[0], sz[1]))
		})
		t.Run(fmt.Sprintf("shell_%dx%d", sz[0], sz[1]), func(t *testing.T) {
			code := 0
			run := func(context.Context, string) tools.Result {
				return tools.Result{Output: "made\n", ExitCode: &code}
			}
			m := newTestModelWith(t, sz[0], sz[1], Options{Shell: &shellcmd.Shell{Run: run, OutputCap: 1 << 10}})
			typeText(m, "!touch made.txt && echo made")
			_, cmd := m.Update(press("enter"))
			msg := awaitShell(t, shellMsgs(cmd)).(shellcmd.DoneMsg)
			msg.Duration = 12 * time.Millisecond // a fixed figure for the golden
			send(m, msg)
			golden(t, m, fmt.Sprintf("shell_%dx%d", sz[0], sz[1]))
		})
	}
}
