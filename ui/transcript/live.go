package transcript

import (
	"encoding/json"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/attach"
	"github.com/keel-dev/keel/ui/common"
	"github.com/keel-dev/keel/ui/markdown"
)

// liveRound is the round that is streaming, owned by the transcript that
// shows it: the answer and reasoning still arriving, the tool calls still
// running, the cards waiting for their answer, and whether a frame tick is
// scheduled to redraw what streamed.
type liveRound struct {
	answer, reasoning *Entry
	lastAnswer        *Entry // the newest answer of the task, streamed or ended (a checkpoint's reply)
	tools             map[string]*Entry
	cards             map[int]*Entry
	framePending      bool
}

// AppendAnswer adds streamed answer text; it is drawn on the next frame.
func (t *Model) AppendAnswer(text string) {
	l := &t.live
	if l.reasoning != nil {
		t.finishEntry(l.reasoning)
		l.reasoning = nil
	}
	if l.answer == nil {
		l.answer = t.add(&Entry{kind: kindAssistant, streaming: true})
		l.lastAnswer = l.answer
	}
	l.answer.text += text
	l.answer.dirty = true // redrawn on the next frame, not per delta
}

// AppendReasoning adds streamed reasoning text.
func (t *Model) AppendReasoning(text string) {
	l := &t.live
	if l.reasoning == nil {
		l.reasoning = t.add(&Entry{kind: kindReasoning, streaming: true})
	}
	l.reasoning.text += text
	l.reasoning.dirty = true
}

// DropPartial removes the partial answer of a round being retried.
func (t *Model) DropPartial() {
	for _, e := range []*Entry{t.live.answer, t.live.reasoning} {
		if e != nil {
			t.Remove(e)
		}
	}
	t.live.answer, t.live.reasoning, t.live.lastAnswer = nil, nil, nil
}

// EndStream closes the streaming entries: the answer is rendered whole,
// once, now that it is complete.
func (t *Model) EndStream() {
	for _, e := range []*Entry{t.live.reasoning, t.live.answer} {
		if e != nil {
			t.finishEntry(e)
		}
	}
	t.live.answer, t.live.reasoning = nil, nil
}

func (t *Model) finishEntry(e *Entry) {
	e.streaming, e.dirty = false, false
	e.stream = markdown.Stream{}
	t.changed(e)
}

// EndTask closes the round at the end of a task: nothing streams or runs.
func (t *Model) EndTask() {
	t.EndStream()
	t.live.lastAnswer = nil
	clear(t.live.tools)
	for _, e := range t.live.cards {
		e.settled = true
		t.changed(e)
	}
	clear(t.live.cards) // a checkpoint's answer comes within its task or not at all
}

// ResetLive forgets the round (the session was replaced).
func (t *Model) ResetLive() {
	t.live.answer, t.live.reasoning = nil, nil
}

// StartTool shows a tool call that started at "at" (its time counts
// from then, unless the user is being asked about it: HoldClock).
func (t *Model) StartTool(ev agent.ToolStarted, at time.Time) {
	t.EndStream()
	t.live.tools[ev.CallID] = t.add(&Entry{kind: kindTool, tool: &toolCall{id: ev.CallID, name: ev.Name, args: ev.Args,
		started: t.startedAt(ev.CallID, at)}})
}

// FinishTool shows a tool call's outcome.
func (t *Model) FinishTool(ev agent.ToolFinished) {
	e := t.live.tools[ev.CallID]
	if e == nil {
		e = t.add(&Entry{kind: kindTool, tool: &toolCall{id: ev.CallID, name: ev.Name, args: ev.Args}})
	}
	delete(t.live.tools, ev.CallID)
	delete(t.clock.held, ev.CallID)
	c := e.tool
	c.output, c.diff, c.exitCode, c.duration, c.denyReason = ev.Output, ev.Diff, ev.ExitCode, ev.Duration, ev.DenyReason
	c.progress, c.images = "", toolImageLabels(ev.Images)
	switch {
	case ev.Denied:
		c.state = toolDenied
	case ev.IsError:
		c.state = toolFailed
	default:
		c.state = toolOK
	}
	t.changed(e)
}

// AddCard shows a checkpoint or guard card.
func (t *Model) AddCard(in agent.Intervention) {
	t.EndStream()
	t.live.cards[in.Seq] = t.add(&Entry{kind: kindCard, card: &in})
}

// AnswerCard puts the model's reply to a checkpoint on its card. With
// fold, the reply streamed as an answer below the card is taken into it,
// so it is not shown twice (fold is false for a task's final answer,
// which stays in the conversation).
func (t *Model) AnswerCard(seq int, text string, fold bool) {
	e := t.live.cards[seq]
	if e == nil {
		return
	}
	e.card.Reply = text
	if a := t.live.lastAnswer; fold && a != nil && strings.TrimSpace(common.Clean(a.text)) == strings.TrimSpace(common.Clean(text)) {
		t.Remove(a)
		if t.live.answer == a {
			t.live.answer = nil
		}
		t.live.lastAnswer = nil
	}
	t.changed(e)
}

// ReflectCard puts a checkpoint's structured answer (the model's reflect
// call) on its card.
func (t *Model) ReflectCard(seq int, r agent.Reflection) {
	if e := t.live.cards[seq]; e != nil {
		e.refl = &r
		t.changed(e)
	}
}

// UnansweredCard settles a checkpoint the next round did not answer.
func (t *Model) UnansweredCard(seq int, why string) {
	if e := t.live.cards[seq]; e != nil && e.card.Reply == "" && e.refl == nil {
		e.cardNote = why
		t.changed(e)
	}
}

// FramePending reports whether a frame tick is scheduled.
func (t *Model) FramePending() bool { return t.live.framePending }

// streamDirty reports streamed text not drawn yet.
func (t *Model) streamDirty() bool {
	l := &t.live
	return (l.answer != nil && l.answer.dirty) || (l.reasoning != nil && l.reasoning.dirty)
}

// Frame redraws the streaming entries that changed since the last frame.
func (t *Model) Frame() {
	t.live.framePending = false
	for _, e := range []*Entry{t.live.answer, t.live.reasoning} {
		if e != nil && e.dirty {
			e.dirty = false
			t.changed(e)
		}
	}
}

// ScheduleFrame asks for one frame tick when streamed text waits and no
// tick is pending; the View after it redraws the streaming entry (at most
// 60 times a second).
func (t *Model) ScheduleFrame() tea.Cmd {
	if t.live.framePending || !t.streamDirty() {
		return nil
	}
	t.live.framePending = true
	return tea.Tick(FrameInterval, func(time.Time) tea.Msg { return FrameMsg{} })
}

// Notice adds a dim one-line note.
func (t *Model) Notice(text string) { t.add(&Entry{kind: kindNotice, text: text}) }

// ErrorCard adds a one-line error that says what to do.
func (t *Model) ErrorCard(text string) { t.add(&Entry{kind: kindError, text: text}) }

// AddPrompt shows a prompt the user sent (or queued, to send later) as
// typed (shown), with the chips of its files and a line saying what went
// with it.
func (t *Model) AddPrompt(shown string, files []attach.File, outs []attach.Output, queued bool) *Entry {
	e := t.add(&Entry{kind: kindUser, text: shown, queued: queued})
	e.chips, e.attached = attach.Notes(files, outs)
	t.End()
	return e
}

// Unqueue marks a queued prompt as sent.
func (t *Model) Unqueue(e *Entry) {
	e.queued = false
	t.changed(e)
}

// AddShell shows a !command the user started at "at".
func (t *Model) AddShell(command string, at time.Time) *Entry {
	args, _ := json.Marshal(map[string]string{"command": command})
	e := t.add(&Entry{kind: kindTool, tool: &toolCall{name: "!", args: string(args), user: true, started: at}})
	t.End()
	return e
}

// shellNote follows a !command's outcome: its output is not sent yet.
const shellNote = "output goes with your next prompt"

// shellOwn is the line under a !command: whose command it was.
const shellOwn = "ran as your own command, outside the model's permissions"

// ShellOutcome is how a !command ended, as its entry shows it.
type ShellOutcome struct {
	Denied   bool
	Reason   string // why it was denied ("" when the user gave none)
	Err      error  // the harness broke
	Output   string
	ExitCode *int
	IsError  bool // the command failed
	Duration time.Duration
}

// FinishShell shows a !command's outcome.
func (t *Model) FinishShell(e *Entry, o ShellOutcome) {
	c := e.tool
	switch {
	case o.Denied:
		c.state, c.denyReason = toolDenied, common.Clean(o.Reason)
		if c.denyReason == "" {
			c.denyReason = "you denied it"
		}
	case o.Err != nil:
		c.state, c.output = toolFailed, common.Clean(o.Err.Error())
	default:
		c.output, c.exitCode, c.duration = common.Clean(o.Output), o.ExitCode, o.Duration
		c.state, c.note = toolOK, shellNote
		if o.IsError {
			c.state = toolFailed
		}
	}
	t.changed(e)
}
