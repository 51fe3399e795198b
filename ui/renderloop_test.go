package ui

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/transcript"
)

// These tests run keel's model in a real Bubble Tea program, started with
// Run's options, and count the frames it draws: Bubble Tea's renderer
// writes each frame to the output in one Write, and writes nothing when
// the view has not changed. They wait on counts, not on timing; the one
// sleep is the idle second being measured.

// quietFor is how long the program must draw nothing before a test counts
// it as settled: longer than keel's spinner interval, so a spinner that
// failed to stop shows up as frames.
const quietFor = 3 * spinInterval

// frames counts the writes to a program's output.
type frames struct{ n atomic.Int64 }

func (f *frames) Write(b []byte) (int, error) { f.n.Add(1); return len(b), nil }

// program is a running Bubble Tea program over keel's model.
type program struct {
	p     *tea.Program
	drawn frames         // the frames written
	done  chan tea.Model // the final model, once Run returns
}

func startProgram(t *testing.T) *program {
	t.Helper()
	m := newTestModel(t, 100, 30)
	pr := &program{done: make(chan tea.Model, 1)}
	opts := append(programOptions(context.Background()),
		tea.WithInput(nil), tea.WithOutput(&pr.drawn), tea.WithWindowSize(100, 30))
	pr.p = tea.NewProgram(m, opts...)
	go func() {
		final, err := pr.p.Run()
		if err != nil {
			t.Errorf("Run: %v", err)
		}
		pr.done <- final
	}()
	t.Cleanup(func() { pr.stop(t) })
	return pr
}

// stop quits the program and returns its final model (nil if it is gone).
func (pr *program) stop(t *testing.T) *Model {
	t.Helper()
	if pr.p == nil {
		return nil
	}
	pr.p.Quit()
	final := <-pr.done
	pr.p = nil
	m, _ := final.(*Model)
	return m
}

// settle waits for the first frame, then until the program has drawn
// nothing for quietFor (or 5 s have passed; a loop that never goes quiet is
// for the caller's count to report).
func (pr *program) settle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for pr.drawn.n.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the TUI never drew its first frame")
		}
		time.Sleep(time.Millisecond)
	}
	limit := time.Now().Add(30 * time.Second)
	for n := pr.drawn.n.Load(); time.Now().Before(limit); {
		time.Sleep(quietFor)
		if m := pr.drawn.n.Load(); m == n {
			return
		} else {
			n = m
		}
	}
}

// TestIdleTUIDrawsNothing: after a task ran (spinner, streamed answer, task
// end), an idle second draws no frame: no spinner or frame tick is left
// running. (Bubble Tea's own ticker still wakes at 60 Hz and finds nothing
// to draw: keelbench -tui-idle measures what that costs.)
func TestIdleTUIDrawsNothing(t *testing.T) {
	pr := startProgram(t)
	pr.settle(t)
	pr.p.Send(events(agent.StateChanged{From: agent.StateIdle, To: agent.StateThinking}))
	for _, chunk := range []string{"Here is ", "the **answer**:\n\n", "```go\nfunc main() {}\n```\n"} {
		pr.p.Send(events(agent.TextDelta{Text: chunk}))
	}
	pr.p.Send(events(agent.RoundFinished{}, agent.StateChanged{From: agent.StateThinking, To: agent.StateDone},
		agent.TaskStopped{Reason: agent.StopCompleted}))
	pr.settle(t)

	before := pr.drawn.n.Load()
	time.Sleep(time.Second)
	if n := pr.drawn.n.Load() - before; n != 0 {
		t.Fatalf("the idle TUI drew %d frames in a second; want 0", n)
	}
	m := pr.stop(t)
	if m == nil || m.spinning || m.tr.FramePending() {
		t.Fatalf("a tick is still scheduled after the task: %+v", m)
	}
	if s := plain(m); !strings.Contains(s, "the answer:") || !strings.Contains(s, "func main") {
		t.Fatalf("the answer is not on the screen:\n%s", s)
	}
}

// TestStreamingDrawsAtMostSixtyFPS: while deltas arrive every millisecond,
// the TUI keeps drawing (not only at the end) and never more than 60 times
// a second.
func TestStreamingDrawsAtMostSixtyFPS(t *testing.T) {
	pr := startProgram(t)
	pr.settle(t)
	pr.p.Send(events(agent.StateChanged{From: agent.StateIdle, To: agent.StateThinking}))
	before := pr.drawn.n.Load()
	start := time.Now()
	const deltas = 300
	for i := range deltas {
		pr.p.Send(events(agent.TextDelta{Text: "word "}))
		if i%50 == 49 {
			pr.p.Send(events(agent.TextDelta{Text: "\n\n"}))
		}
		time.Sleep(time.Millisecond)
	}
	elapsed := time.Since(start)
	n := pr.drawn.n.Load() - before
	limit := int64(elapsed/transcript.FrameInterval) + 3
	t.Logf("%d frames in %v (%.0f a second) for %d deltas", n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(), deltas)
	if n > limit {
		t.Errorf("%d frames in %v; at 60 fps at most %d", n, elapsed, limit)
	}
	if n < 3 {
		t.Errorf("%d frames in %v: the TUI should draw while the answer streams", n, elapsed)
	}
}
