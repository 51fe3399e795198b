package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/dialog"
)

func TestEnterSendsAndQueuesWhileRunning(t *testing.T) {
	m := newTestModel(t, 80, 24)
	typeText(m, "first task")
	_, cmd := m.Update(press("enter"))
	if cmd == nil || !m.running {
		t.Fatal("enter should submit the prompt in a command and mark the task running")
	}
	if m.input.Value() != "" {
		t.Fatalf("input not cleared: %q", m.input.Value())
	}
	typeText(m, "second task")
	send(m, press("enter"))
	if len(m.queue) != 1 || m.queue[0].prompt != "second task" {
		t.Fatalf("queue = %v, want the second prompt", m.queue)
	}
	if !strings.Contains(plain(m), "second task  (queued)") {
		t.Fatalf("queued prompt not shown as queued:\n%s", plain(m))
	}
	_, cmd = m.Update(events(agent.TaskStopped{Reason: agent.StopCompleted}))
	if cmd == nil || len(m.queue) != 0 || !m.running {
		t.Fatal("TaskStopped should submit the queued prompt")
	}
	if strings.Contains(plain(m), "(queued)") {
		t.Fatal("the sent prompt is still marked queued")
	}
}

func TestAltEnterInsertsNewline(t *testing.T) {
	m := newTestModel(t, 80, 24)
	typeText(m, "a")
	send(m, press("alt+enter"))
	typeText(m, "b")
	if got := m.input.Value(); got != "a\nb" {
		t.Fatalf("value = %q, want a newline", got)
	}
	if m.running {
		t.Fatal("alt+enter must not send")
	}
}

func TestHistoryUpDown(t *testing.T) {
	m := newTestModel(t, 80, 24)
	for _, p := range []string{"one", "two"} {
		typeText(m, p)
		send(m, press("enter"))
		send(m, events(agent.TaskStopped{Reason: agent.StopCompleted}))
	}
	typeText(m, "draft")
	send(m, press("up"))
	if m.input.Value() != "two" {
		t.Fatalf("up: %q", m.input.Value())
	}
	send(m, press("up"))
	if m.input.Value() != "one" {
		t.Fatalf("up up: %q", m.input.Value())
	}
	send(m, press("down"), press("down"))
	if m.input.Value() != "draft" {
		t.Fatalf("down down should restore the draft: %q", m.input.Value())
	}
}

func TestLargePasteCollapsesButIsSentWhole(t *testing.T) {
	m := newTestModel(t, 80, 24)
	text := strings.Repeat("line\n", 239) + "line"
	send(m, tea.PasteMsg{Content: text})
	if got := m.input.Value(); got != "[pasted 240 lines]" {
		t.Fatalf("box shows %q", got)
	}
	prompt, shown := m.input.Take()
	if prompt != text || shown != "[pasted 240 lines]" {
		t.Fatalf("prompt %d bytes, shown %q", len(prompt), shown)
	}
}

func TestEscCancelsRunningTask(t *testing.T) {
	m := newTestModel(t, 80, 24)
	typeText(m, "work")
	send(m, press("enter"), press("esc"))
	if !strings.Contains(statusLine(m), "cancelling…") || !strings.Contains(plain(m), "cancelling the task") {
		t.Fatalf("esc should say it is cancelling:\n%s", plain(m))
	}
	send(m, events(agent.TaskStopped{Reason: agent.StopCancelled}))
	if m.running || strings.Contains(statusLine(m), "cancelling") || !strings.Contains(plain(m), "cancelled") {
		t.Fatalf("after TaskStopped the screen should say cancelled:\n%s", plain(m))
	}
}

// TestCtrlCStopsARunningTask: while a task runs, ctrl+c stops it as esc
// does, whatever the input holds, and arms no quit; a task slow to stop
// can still be left with ctrl+c twice more.
func TestCtrlCStopsARunningTask(t *testing.T) {
	m := newTestModel(t, 80, 24)
	typeText(m, "work")
	send(m, press("enter"))
	typeText(m, "draft of the next prompt")
	_, cmd := m.Update(press("ctrl+c"))
	if cmd != nil || !strings.Contains(statusLine(m), "cancelling…") || !strings.Contains(plain(m), "cancelling the task (ctrl+c)") {
		t.Fatalf("ctrl+c should cancel the task:\n%s", plain(m))
	}
	if strings.Contains(plain(m), "again to quit") || m.input.Value() != "draft of the next prompt" {
		t.Fatalf("ctrl+c armed quitting or cleared the input (%q):\n%s", m.input.Value(), plain(m))
	}
	send(m, press("ctrl+c")) // still stopping: this one clears the input
	if _, cmd = m.Update(press("ctrl+c")); cmd != nil {
		t.Fatal("the first ctrl+c on an empty input while stopping should warn, not quit")
	}
	if _, cmd = m.Update(press("ctrl+c")); cmd == nil {
		t.Fatal("ctrl+c twice on a task that does not stop should quit")
	}
	m = newTestModel(t, 80, 24)
	typeText(m, "work")
	send(m, press("enter"), press("ctrl+c"), events(agent.TaskStopped{Reason: agent.StopCancelled}))
	if _, cmd = m.Update(press("ctrl+c")); cmd != nil || !strings.Contains(plain(m), "again to quit") {
		t.Fatal("once the task stopped, ctrl+c is the idle prompt's again")
	}
}

func TestCtrlCTwiceQuits(t *testing.T) {
	m := newTestModel(t, 80, 24)
	_, cmd := m.Update(press("ctrl+c"))
	if cmd != nil || !strings.Contains(plain(m), "again to quit") {
		t.Fatal("first ctrl+c should only warn")
	}
	_, cmd = m.Update(press("ctrl+c"))
	if cmd == nil {
		t.Fatal("second ctrl+c should quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("second ctrl+c did not return tea.Quit")
	}
	// Another key in between disarms it.
	m = newTestModel(t, 80, 24)
	send(m, press("ctrl+c"), press("x"))
	if _, cmd = m.Update(press("ctrl+c")); cmd != nil {
		t.Fatal("ctrl+c after another key should warn again, not quit")
	}
}

func TestHelpKey(t *testing.T) {
	m := newTestModel(t, 80, 24)
	send(m, press("?"))
	if !m.help.Open() || !strings.Contains(plain(m), "/cadence N") {
		t.Fatalf("? should show key help with the commands:\n%s", plain(m))
	}
	send(m, press("x"))
	if m.help.Open() || m.input.Value() != "" {
		t.Fatal("any key closes the help without typing")
	}
	typeText(m, "why")
	send(m, press("?"))
	if m.help.Open() || m.input.Value() != "why?" {
		t.Fatal("? types once the input holds text")
	}
}

func TestCopyLastAnswer(t *testing.T) {
	m := newTestModel(t, 80, 24)
	_, cmd := m.Update(press("y"))
	if cmd != nil {
		t.Fatal("y with no answer should not copy")
	}
	send(m, events(agent.TextDelta{Text: "the answer"}, agent.TaskStopped{Reason: agent.StopCompleted}))
	_, cmd = m.Update(press("y"))
	if cmd == nil {
		t.Fatal("y should copy the last answer")
	}
	if got := cmd(); got == nil {
		t.Fatal("the copy command returned no message")
	}
}

func TestCtrlPTogglesPlan(t *testing.T) {
	m := newTestModel(t, 120, 30)
	send(m, press("ctrl+p"))
	if !strings.Contains(plain(m), "no plan yet") {
		t.Fatal("ctrl+p without a plan should say so")
	}
	send(m, events(agent.PlanChanged{Plan: samplePlan()}))
	if !m.sidePanel() || !strings.Contains(plain(m), "Page through LoadRounds") {
		t.Fatal("a plan should appear in the side panel at 120 columns")
	}
	send(m, press("ctrl+p"))
	if m.sidePanel() || strings.Contains(plain(m), "Page through LoadRounds") {
		t.Fatal("ctrl+p should hide the plan")
	}
	send(m, press("ctrl+p"), tea.WindowSizeMsg{Width: 90, Height: 30})
	if !m.foldedPlan() || !strings.Contains(plain(m), "plan 1/5") {
		t.Fatal("under 100 columns the plan folds to one line")
	}
}

func TestScrollKeysAndWheel(t *testing.T) {
	m := newTestModel(t, 80, 24)
	for i := range 50 {
		send(m, NoticeMsg{Text: "note " + string(rune('A'+i%26))})
	}
	send(m, press("pgup"))
	if m.tr.Following() {
		t.Fatal("pgup should leave the bottom")
	}
	send(m, press("home"))
	if !strings.Contains(plain(m), "note A") {
		t.Fatal("home should show the start")
	}
	send(m, press("end"))
	if !m.tr.Following() {
		t.Fatal("end should follow the bottom again")
	}
	send(m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.tr.Following() {
		t.Fatal("wheel up should scroll")
	}
	send(m, press("pgdown"), press("pgdown"))
	if !m.tr.Following() {
		t.Fatal("pgdown to the end should follow again")
	}
}

func TestExpandToolCall(t *testing.T) {
	m := newTestModel(t, 80, 24)
	send(m, events(
		agent.ToolStarted{CallID: "1", Name: "run_command", Args: `{"command":"ls"}`},
		agent.ToolFinished{CallID: "1", Name: "run_command", Output: "secret-output-line", ExitCode: intp(0), Duration: time.Millisecond},
	))
	if strings.Contains(plain(m), "secret-output-line") {
		t.Fatal("output shown before expanding")
	}
	send(m, press("ctrl+o"))
	if !strings.Contains(plain(m), "secret-output-line") {
		t.Fatalf("ctrl+o should expand the newest tool call:\n%s", plain(m))
	}
	send(m, press("ctrl+o"))
	if strings.Contains(plain(m), "secret-output-line") {
		t.Fatal("ctrl+o again should collapse it")
	}
}

func TestTooSmall(t *testing.T) {
	m := newTestModel(t, 39, 10)
	if !strings.Contains(plain(m), "at least 40×10") {
		t.Fatalf("39 columns should be too small:\n%s", plain(m))
	}
	send(m, tea.WindowSizeMsg{Width: 40, Height: 10})
	if strings.Contains(plain(m), "at least 40×10") {
		t.Fatal("40×10 is enough")
	}
}

func TestViewIsExactlyTheScreen(t *testing.T) {
	for _, sz := range sizes {
		for name, build := range scenarios {
			if build == nil {
				continue
			}
			m := newTestModel(t, sz[0], sz[1])
			build(t, m)
			lines := strings.Split(plain(m), "\n")
			if len(lines) != sz[1] {
				t.Errorf("%s at %v: %d lines", name, sz, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > sz[0] {
					t.Errorf("%s at %v: line %d is %d wide: %q", name, sz, i, w, l)
				}
			}
		}
	}
}

func TestSelectingScrollsIntoView(t *testing.T) {
	m := newTestModel(t, 80, 24)
	send(m, events(agent.ToolStarted{CallID: "1", Name: "run_command", Args: `{"command":"first-call"}`},
		agent.ToolFinished{CallID: "1", Name: "run_command", Output: "x"}))
	for range 40 {
		send(m, NoticeMsg{Text: "filler"})
	}
	send(m, events(agent.ToolStarted{CallID: "2", Name: "run_command", Args: `{"command":"second-call"}`},
		agent.ToolFinished{CallID: "2", Name: "run_command", Output: "y"}))
	if strings.Contains(plain(m), "first-call") {
		t.Fatal("the first call should be off screen")
	}
	send(m, press("alt+up"))
	if !strings.Contains(plain(m), "first-call") {
		t.Fatalf("selecting it should scroll to it:\n%s", plain(m))
	}
	send(m, press("alt+down"))
	if !strings.Contains(plain(m), "second-call") {
		t.Fatal("selecting the newest scrolls back")
	}
}

func TestWelcomeScreenOffersTheDemo(t *testing.T) {
	m := New(Options{Bridge: dialog.NewBridge(), Width: 80, Height: 24})
	if !strings.Contains(plain(m), "press d") {
		t.Fatalf("welcome screen does not offer the demo:\n%s", plain(m))
	}
	send(m, press("d"))
	if !m.DemoRequested() {
		t.Error("d on the welcome screen did not ask for the demo")
	}
	m2 := newTestModel(t, 80, 24)
	send(m2, press("d"))
	if m2.DemoRequested() {
		t.Error("d with a session must type, not start the demo")
	}
}
