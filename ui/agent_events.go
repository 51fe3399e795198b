package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
)

// maxBatch caps how many queued events one message carries, so a burst
// is handled in a few updates rather than one per delta.
const maxBatch = 256

// frameInterval coalesces stream deltas: the streaming answer is redrawn
// at most this often (60 fps).
const frameInterval = time.Second / 60

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
	r   *request
}

type (
	frameMsg     struct{}
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
	var reqs <-chan *request
	if m.opts.Bridge != nil {
		reqs = m.opts.Bridge.reqs
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
	for _, ev := range msg.events {
		m.apply(ev)
	}
	m.dialogs.prune()
	var cmds []tea.Cmd
	if m.streamDirty() {
		cmds = append(cmds, m.scheduleFrame())
	}
	cmds = append(cmds, m.startSpin())
	if !m.running && len(m.queue) > 0 {
		cmds = append(cmds, m.submitQueued())
	}
	return tea.Batch(cmds...)
}

// apply routes one event to the part of the UI it changes, its text
// sanitised first (cleanEvent).
func (m *Model) apply(ev agent.Event) {
	switch ev := cleanEvent(ev).(type) {
	case agent.TextDelta:
		m.textDelta(ev.Text)
	case agent.ReasoningDelta:
		m.reasoningDelta(ev.Text)
	case agent.AnswerRestarted:
		m.dropPartial(ev.Reason)
	case agent.StateChanged:
		m.stateChanged(ev)
	case agent.ToolStarted:
		m.endStream()
		e := m.tr.add(&entry{kind: kindTool, tool: &toolCall{id: ev.CallID, name: ev.Name, args: ev.Args}})
		m.tools[ev.CallID] = e
	case agent.ToolFinished:
		m.toolFinished(ev)
	case agent.UsageUpdated:
		m.status.usage(ev)
		m.plan.ctxTokens = ev.ContextTokens
		if ev.ContextWindow > 0 {
			m.plan.ctxWindow = ev.ContextWindow
		}
	case agent.InterventionFired:
		m.interventionFired(ev.Intervention)
	case agent.InterventionAnswered:
		if e := m.cards[ev.Seq]; e != nil {
			e.card.Reply = ev.Text
			m.tr.changed(e)
		}
	case agent.PlanChanged:
		m.plan.setPlan(ev.Plan)
	case agent.ReportUpdated:
		m.plan.stalled = ev.Stalled
	case agent.RoundFinished:
		m.endStream()
	case agent.Retrying:
		m.status.state = agent.StateRetrying
		m.status.retryIn, m.retryAt = ev.Wait, time.Time{}
	case agent.Notice:
		m.notice(ev.Text)
	case agent.TaskStopped:
		m.taskStopped(ev)
	}
}

func (m *Model) textDelta(text string) {
	if m.reasoning != nil {
		m.finishEntry(m.reasoning)
		m.reasoning = nil
	}
	if m.answer == nil {
		m.answer = m.tr.add(&entry{kind: kindAssistant, streaming: true})
	}
	m.answer.text += text
	m.answer.dirty = true // redrawn on the next frame, not per delta
}

func (m *Model) reasoningDelta(text string) {
	if m.reasoning == nil {
		m.reasoning = m.tr.add(&entry{kind: kindReasoning, streaming: true})
	}
	m.reasoning.text += text
	m.reasoning.dirty = true
}

// dropPartial removes the partial answer of a round being retried.
func (m *Model) dropPartial(reason string) {
	for _, e := range []*entry{m.answer, m.reasoning} {
		if e != nil {
			m.tr.remove(e)
		}
	}
	m.answer, m.reasoning = nil, nil
	if reason != "" {
		m.notice("answer restarted: " + reason)
	}
}

// endStream closes the streaming entries: the answer is rendered whole,
// once, now that it is complete.
func (m *Model) endStream() {
	for _, e := range []*entry{m.reasoning, m.answer} {
		if e != nil {
			m.finishEntry(e)
		}
	}
	m.answer, m.reasoning = nil, nil
}

func (m *Model) finishEntry(e *entry) {
	e.streaming, e.dirty = false, false
	e.stream = stream{}
	m.tr.changed(e)
}

func (m *Model) stateChanged(ev agent.StateChanged) {
	m.status.state, m.status.detail = ev.To, ev.Detail
	if ev.To != agent.StateRetrying {
		m.status.retryIn = 0
	}
}

func (m *Model) toolFinished(ev agent.ToolFinished) {
	e := m.tools[ev.CallID]
	if e == nil {
		e = m.tr.add(&entry{kind: kindTool, tool: &toolCall{id: ev.CallID, name: ev.Name, args: ev.Args}})
	}
	delete(m.tools, ev.CallID)
	t := e.tool
	t.output, t.diff, t.exitCode, t.duration, t.denyReason = ev.Output, ev.Diff, ev.ExitCode, ev.Duration, ev.DenyReason
	switch {
	case ev.Denied:
		t.state = toolDenied
	case ev.IsError:
		t.state = toolFailed
	default:
		t.state = toolOK
	}
	m.plan.toolDone(ev.Name, !ev.IsError && !ev.Denied)
	m.tr.changed(e)
}

func (m *Model) interventionFired(in agent.Intervention) {
	m.endStream()
	e := m.tr.add(&entry{kind: kindCard, card: &in})
	m.cards[in.Seq] = e
	if in.Kind == "reflection" {
		m.plan.checkpoint()
	}
}

// taskStopped ends a task: the screen says how, and the next queued
// prompt (if any) is sent.
func (m *Model) taskStopped(ev agent.TaskStopped) {
	m.endStream()
	m.running, m.status.cancelling = false, false
	clear(m.tools)
	switch {
	case ev.Reason == agent.StopCompleted:
	case ev.Reason == agent.StopCancelled:
		m.notice("cancelled — the task stopped; type a new prompt to go on")
	case ev.Err != nil || ev.Reason == agent.StopProviderError:
		m.errorCard(stopText(ev) + " — check the provider in `keel config` or try again")
	default:
		m.errorCard(stopText(ev) + " — send a prompt to continue, or /log to see what happened")
	}
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

func (m *Model) streamDirty() bool {
	return (m.answer != nil && m.answer.dirty) || (m.reasoning != nil && m.reasoning.dirty)
}

// frame redraws the streaming entries that changed since the last frame.
func (m *Model) frame() {
	m.framePending = false
	for _, e := range []*entry{m.answer, m.reasoning} {
		if e != nil && e.dirty {
			e.dirty = false
			m.tr.changed(e)
		}
	}
}

// scheduleFrame asks for one frame tick unless one is pending; the View
// after it redraws the streaming entry (at most 60 times a second).
func (m *Model) scheduleFrame() tea.Cmd {
	if m.framePending {
		return nil
	}
	m.framePending = true
	return tea.Tick(frameInterval, func(time.Time) tea.Msg { return frameMsg{} })
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
	m.r.frame++
	if m.status.retryIn > 0 {
		if m.retryAt.IsZero() {
			m.retryAt = msg.at.Add(m.status.retryIn)
		}
		m.status.retryIn = max(m.retryAt.Sub(msg.at), 0)
	}
	return spinTick()
}

// busy reports whether anything on screen moves: a task runs.
func (m *Model) busy() bool { return m.running || m.status.working() }

// submit sends a prompt in a command; an error comes back as a message.
func (m *Model) submit(prompt string) tea.Cmd {
	s, ctx := m.session, m.ctx
	m.running = true
	m.plan.newTask()
	return tea.Batch(func() tea.Msg {
		if err := s.Submit(ctx, prompt); err != nil {
			return submitErrMsg{err: err}
		}
		return nil
	}, m.startSpin())
}

// submitQueued sends the oldest queued prompt.
func (m *Model) submitQueued() tea.Cmd {
	e := m.queue[0]
	m.queue = m.queue[1:]
	e.queued = false
	m.tr.changed(e)
	return m.submit(e.prompt)
}
