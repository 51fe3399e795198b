package ui

import (
	"runtime/debug"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/tools"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/dialog"
)

// maxBatch caps how many queued events one message carries, so a burst
// is handled in a few updates rather than one per delta.
const maxBatch = 256

// spinInterval is the spinner's speed; it ticks only while keel works.
const spinInterval = 100 * time.Millisecond

// eventsMsg carries agent events drained from the session, in order.
type eventsMsg struct {
	gen    int
	events []agent.Event
}

// requestMsg carries a question from the agent (through the Bridge).
type requestMsg struct {
	gen int
	r   *dialog.Request
}

type (
	spinMsg      struct{ at time.Time }
	submitErrMsg struct{ err error }
)

// drain returns the command that waits for the next agent event or
// question. It is re-armed after each message, so exactly one runs per
// generation; it captures the channels, never the model.
func (m *Model) drain() tea.Cmd {
	var events <-chan agent.Event
	if m.session != nil {
		events = m.session.Events()
	}
	var reqs <-chan *dialog.Request
	if m.opts.Bridge != nil {
		reqs = m.opts.Bridge.Requests()
	}
	if events == nil && reqs == nil {
		return nil
	}
	gen := m.gen
	return func() tea.Msg {
		select {
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			batch := []agent.Event{ev}
			for len(batch) < maxBatch {
				select {
				case ev, ok := <-events:
					if !ok {
						return eventsMsg{gen: gen, events: batch}
					}
					batch = append(batch, ev)
				default:
					return eventsMsg{gen: gen, events: batch}
				}
			}
			return eventsMsg{gen: gen, events: batch}
		case r := <-reqs:
			return requestMsg{gen: gen, r: r}
		}
	}
}

// handleEvents applies a batch of events and schedules what must follow:
// a frame while an answer streams, the spinner while keel works.
func (m *Model) handleEvents(msg eventsMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil // a replaced session's last events
	}
	ended := false
	for _, ev := range msg.events {
		m.apply(ev)
		_, stop := ev.(agent.TaskStopped)
		ended = ended || stop
	}
	m.dialogs.Prune()
	cmds := []tea.Cmd{m.tr.ScheduleFrame(), m.startSpin()}
	switch {
	case !m.running && len(m.queue) > 0:
		cmds = append(cmds, m.submitQueued())
	case ended && !m.running:
		cmds = append(cmds, releaseMemory)
	}
	return tea.Batch(cmds...)
}

// releaseMemory returns the heap a finished task no longer uses to the
// system while keel waits for the user. The runtime does it on its own
// only slowly, so a long session kept about twice its live heap resident
// (issue 15: 44 -> see BENCHMARKS.md after 1,000 rounds). One full
// collection per task, run off the update loop, costs a few milliseconds.
func releaseMemory() tea.Msg {
	debug.FreeOSMemory()
	return nil
}

// apply routes one event to the part of the UI it changes, its text
// sanitised first (common.CleanEvent).
func (m *Model) apply(ev agent.Event) {
	switch ev := common.CleanEvent(ev).(type) {
	case agent.TextDelta:
		m.tr.AppendAnswer(ev.Text)
	case agent.ReasoningDelta:
		m.tr.AppendReasoning(ev.Text)
	case agent.AnswerRestarted:
		m.tr.DropPartial()
		if ev.Reason != "" {
			m.notice("answer restarted: " + ev.Reason)
		}
	case agent.StateChanged:
		m.status.StateChanged(ev.To, ev.Detail)
	case agent.ToolStarted:
		m.tr.StartTool(ev, m.now())
	case agent.ToolProgress:
		m.tr.ProgressTool(ev)
	case agent.ToolFinished:
		m.tr.FinishTool(ev)
		m.plan.ToolDone(ev.Name, !ev.IsError && !ev.Denied)
	case agent.UsageUpdated:
		m.status.Usage(ev)
		m.plan.Usage(ev)
	case agent.ContextCompacted:
		m.status.Compacted(ev)
		m.plan.Compacted(ev)
	case agent.InterventionFired:
		m.tr.AddCard(ev.Intervention)
		if ev.Intervention.Kind == "reflection" {
			m.plan.Checkpoint()
		}
	case agent.AssistantMessage:
		m.calling = len(ev.ToolCalls) > 0
	case agent.InterventionAnswered:
		m.tr.AnswerCard(ev.Seq, ev.Text, m.calling)
	case agent.PlanChanged:
		m.plan.SetPlan(ev.Plan)
	case agent.ReportUpdated:
		m.plan.SetStalled(ev.Stalled)
	case agent.RoundFinished:
		m.tr.EndStream()
	case agent.Retrying:
		m.status.Retrying(ev.Wait, ev.Why)
	case agent.ProviderSilent:
		m.status.Silent(ev)
	case agent.Notice:
		m.notice(ev.Text)
	case agent.HookRan:
		m.notice(hookLine(ev))
	case agent.SubagentStarted:
		m.tr.SubagentStarted(ev)
	case agent.SubagentEvent:
		m.subagentEvent(ev)
	case agent.SubagentFinished:
		m.tr.SubagentFinished(ev)
	case agent.DatalogHealth:
		m.datalogHealth(ev)
	case agent.JobChanged:
		m.status.SetJobs(ev.Running)
		if !ev.Job.Running {
			m.notice(jobLine(ev.Job))
		}
	case agent.TaskStopped:
		m.taskStopped(ev)
	default:
		m.applyReasoning(ev)
	}
}

// The demo's input hints: before its story and after it.
const (
	demoHint     = "Type anything, press Enter: the demo model fixes a failing test in a minute" // fits 80 columns
	demoOverHint = "The demo has run: ctrl+c twice quits; a message gets the demo model's reply"
)

// taskStopped ends a task: the screen says how, and the next queued
// prompt (if any) is sent.
func (m *Model) taskStopped(ev agent.TaskStopped) {
	m.tr.EndTask()
	m.running = false
	if m.opts.Demo {
		m.input.SetPlaceholder(demoOverHint) // the story has been told
	}
	m.status.SetCancelling(false)
	m.stopping = false
	switch {
	case ev.Reason == agent.StopCompleted:
	case ev.Reason == agent.StopCancelled:
		m.notice("cancelled — the task stopped; type a new prompt to go on")
	case ev.Err != nil || ev.Reason == agent.StopProviderError:
		m.errorCard(providerAdvice(stopText(ev)))
	default:
		m.errorCard(stopText(ev) + " — send a prompt to continue, or /log to see what happened")
	}
}

// providerAdvice ends a provider error with what to check, unless it
// already says (a 404 or an unknown host names the base URL to check).
func providerAdvice(text string) string {
	if strings.Contains(text, "check the ") {
		return text
	}
	return text + " — check the provider in `keel config` or try again"
}

func stopText(ev agent.TaskStopped) string {
	s := string(ev.Reason)
	if ev.Message != "" {
		s += ": " + ev.Message
	}
	if ev.Err != nil && ev.Message == "" {
		s += ": " + ev.Err.Error()
	}
	return s
}

// startSpin starts the spinner while keel works; it stops itself when idle.
func (m *Model) startSpin() tea.Cmd {
	if m.spinning || !m.busy() {
		return nil
	}
	m.spinning = true
	return spinTick()
}

func spinTick() tea.Cmd {
	return tea.Tick(spinInterval, func(t time.Time) tea.Msg { return spinMsg{at: t} })
}

func (m *Model) spin(msg spinMsg) tea.Cmd {
	if !m.busy() {
		m.spinning = false
		return nil
	}
	m.spinFrame++
	m.status.Tick(msg.at)
	m.tr.Tick(m.now())
	return spinTick()
}

// busy reports whether anything on screen moves: a task or a !command runs.
func (m *Model) busy() bool { return m.running || m.status.Working() || m.shell.Active() }

// submit sends a prompt in a command; an error comes back as a message.
func (m *Model) submit(prompt string, images []tools.Image) tea.Cmd {
	s, ctx := m.session, m.ctx
	m.running = true
	m.plan.NewTask()
	return tea.Batch(func() tea.Msg {
		if err := s.SubmitImages(ctx, prompt, images); err != nil {
			return submitErrMsg{err: err}
		}
		return nil
	}, m.startSpin())
}

// submitQueued sends the oldest queued prompt.
func (m *Model) submitQueued() tea.Cmd {
	q := m.queue[0]
	m.queue = m.queue[1:]
	m.tr.Unqueue(q.entry)
	return m.submit(q.prompt, q.images)
}
