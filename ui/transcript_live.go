package ui

import (
	"encoding/json"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/ui/common"
)

// liveRound is the round that is streaming, owned by the transcript that
// shows it: the answer and reasoning still arriving, the tool calls still
// running, the cards waiting for their answer, and whether a frame tick is
// scheduled to redraw what streamed.
type liveRound struct {
	answer, reasoning *entry
	tools             map[string]*entry
	cards             map[int]*entry
	framePending      bool
}

// appendAnswer adds streamed answer text; it is drawn on the next frame.
func (t *transcript) appendAnswer(text string) {
	l := &t.live
	if l.reasoning != nil {
		t.finishEntry(l.reasoning)
		l.reasoning = nil
	}
	if l.answer == nil {
		l.answer = t.add(&entry{kind: kindAssistant, streaming: true})
	}
	l.answer.text += text
	l.answer.dirty = true // redrawn on the next frame, not per delta
}

// appendReasoning adds streamed reasoning text.
func (t *transcript) appendReasoning(text string) {
	l := &t.live
	if l.reasoning == nil {
		l.reasoning = t.add(&entry{kind: kindReasoning, streaming: true})
	}
	l.reasoning.text += text
	l.reasoning.dirty = true
}

// dropPartial removes the partial answer of a round being retried.
func (t *transcript) dropPartial() {
	for _, e := range []*entry{t.live.answer, t.live.reasoning} {
		if e != nil {
			t.remove(e)
		}
	}
	t.live.answer, t.live.reasoning = nil, nil
}

// endStream closes the streaming entries: the answer is rendered whole,
// once, now that it is complete.
func (t *transcript) endStream() {
	for _, e := range []*entry{t.live.reasoning, t.live.answer} {
		if e != nil {
			t.finishEntry(e)
		}
	}
	t.live.answer, t.live.reasoning = nil, nil
}

func (t *transcript) finishEntry(e *entry) {
	e.streaming, e.dirty = false, false
	e.stream = stream{}
	t.changed(e)
}

// endTask closes the round at the end of a task: nothing streams or runs.
func (t *transcript) endTask() {
	t.endStream()
	clear(t.live.tools)
	for _, e := range t.live.cards {
		e.settled = true
		t.changed(e)
	}
	clear(t.live.cards) // a checkpoint's answer comes within its task or not at all
}

// resetLive forgets the round (the session was replaced).
func (t *transcript) resetLive() {
	t.live.answer, t.live.reasoning = nil, nil
}

// startTool shows a tool call that started.
func (t *transcript) startTool(ev agent.ToolStarted) {
	t.endStream()
	t.live.tools[ev.CallID] = t.add(&entry{kind: kindTool, tool: &toolCall{id: ev.CallID, name: ev.Name, args: ev.Args}})
}

// finishTool shows a tool call's outcome.
func (t *transcript) finishTool(ev agent.ToolFinished) {
	e := t.live.tools[ev.CallID]
	if e == nil {
		e = t.add(&entry{kind: kindTool, tool: &toolCall{id: ev.CallID, name: ev.Name, args: ev.Args}})
	}
	delete(t.live.tools, ev.CallID)
	c := e.tool
	c.output, c.diff, c.exitCode, c.duration, c.denyReason = ev.Output, ev.Diff, ev.ExitCode, ev.Duration, ev.DenyReason
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

// addCard shows a checkpoint or guard card.
func (t *transcript) addCard(in agent.Intervention) {
	t.endStream()
	t.live.cards[in.Seq] = t.add(&entry{kind: kindCard, card: &in})
}

// answerCard puts the model's reply to a checkpoint on its card.
func (t *transcript) answerCard(seq int, text string) {
	if e := t.live.cards[seq]; e != nil {
		e.card.Reply = text
		t.changed(e)
	}
}

// streamDirty reports streamed text not drawn yet.
func (t *transcript) streamDirty() bool {
	l := &t.live
	return (l.answer != nil && l.answer.dirty) || (l.reasoning != nil && l.reasoning.dirty)
}

// frame redraws the streaming entries that changed since the last frame.
func (t *transcript) frame() {
	t.live.framePending = false
	for _, e := range []*entry{t.live.answer, t.live.reasoning} {
		if e != nil && e.dirty {
			e.dirty = false
			t.changed(e)
		}
	}
}

// scheduleFrame asks for one frame tick when streamed text waits and no
// tick is pending; the View after it redraws the streaming entry (at most
// 60 times a second).
func (t *transcript) scheduleFrame() tea.Cmd {
	if t.live.framePending || !t.streamDirty() {
		return nil
	}
	t.live.framePending = true
	return tea.Tick(frameInterval, func(time.Time) tea.Msg { return frameMsg{} })
}

// notice adds a dim one-line note.
func (t *transcript) notice(text string) { t.add(&entry{kind: kindNotice, text: text}) }

// errorCard adds a one-line error that says what to do.
func (t *transcript) errorCard(text string) { t.add(&entry{kind: kindError, text: text}) }

// addPrompt shows a prompt the user sent (or queued, to send later).
func (t *transcript) addPrompt(shown, prompt string, queued bool) *entry {
	e := t.add(&entry{kind: kindUser, text: shown, prompt: prompt, queued: queued})
	t.end()
	return e
}

// unqueue marks a queued prompt as sent.
func (t *transcript) unqueue(e *entry) {
	e.queued = false
	t.changed(e)
}

// addShell shows a !command the user started.
func (t *transcript) addShell(command string) *entry {
	args, _ := json.Marshal(map[string]string{"command": command})
	e := t.add(&entry{kind: kindTool, tool: &toolCall{name: "!", args: string(args), user: true}})
	t.end()
	return e
}

// finishShell shows a !command's outcome.
func (t *transcript) finishShell(e *entry, msg shellDoneMsg) {
	c := e.tool
	switch {
	case msg.denied:
		c.state, c.denyReason = toolDenied, common.Clean(msg.reason)
		if c.denyReason == "" {
			c.denyReason = "you denied it"
		}
	case msg.err != nil:
		c.state, c.output = toolFailed, common.Clean(msg.err.Error())
	default:
		c.output, c.exitCode, c.duration = common.Clean(msg.res.Output), msg.res.ExitCode, msg.duration
		c.state, c.note = toolOK, "output goes with your next prompt"
		if msg.res.IsError {
			c.state = toolFailed
		}
	}
	t.changed(e)
}
