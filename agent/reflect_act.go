package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/keel-dev/keel/discipline"
)

// Reflection statuses, as the datalog stores them.
const (
	ReflectionAnswered   = "answered"   // a checkpoint answered with reflect
	ReflectionUnanswered = "unanswered" // the next round brought no reflect call
	ReflectionUnprompted = "unprompted" // reflect called with no checkpoint waiting
)

// UnansweredReply is a checkpoint's reply when the next round brought no
// reflect call.
const UnansweredReply = "unanswered: the next round brought no reflect call"

// ReflectionRecorded reports a checkpoint's answer: the model's
// reflection and what keel did with it, or that none came.
type ReflectionRecorded struct {
	Seq        int         // the checkpoint's Intervention.Seq; 0 when unprompted
	Status     string      // ReflectionAnswered, ReflectionUnanswered or ReflectionUnprompted
	Reflection *Reflection // nil when unanswered
}

func (ReflectionRecorded) event() {}

// structured reports whether checkpoints ask for a reflect call.
func (s *Session) structured() bool { return s.opts.StructuredReflection }

// checkAnswered runs when a response arrives while checkpoints wait for
// their answer: with a reflect call among its calls they are answered
// (when the call runs); without one they are recorded unanswered, the
// card saying so (with the model's text, if it wrote any).
func (t *task) checkAnswered(resp []string, text string) {
	if !t.s.structured() || len(t.checkpoints.awaiting) == 0 {
		return
	}
	if contains(resp, ReflectToolName) {
		t.checkpoints.answering, t.checkpoints.awaiting = t.checkpoints.awaiting, nil
		return
	}
	reply := UnansweredReply
	if text = strings.TrimSpace(text); text != "" {
		reply += "; the model wrote: " + text
	}
	for _, seq := range t.checkpoints.awaiting {
		t.attachReply(seq, reply)
		t.s.opts.Recorder.reflection(seq, ReflectionUnanswered, nil, t.s.currentRound())
		t.s.out.send(ReflectionRecorded{Seq: seq, Status: ReflectionUnanswered})
	}
	t.checkpoints.unanswered += len(t.checkpoints.awaiting)
	t.checkpoints.awaiting = nil
}

// takeReflection records the round's reflect call, if any, against the
// checkpoints waiting for it, and returns it.
func (t *task) takeReflection() *Reflection {
	r := t.s.reflected.take()
	if r == nil {
		return nil
	}
	seqs := t.checkpoints.answering
	t.checkpoints.answering = nil
	if len(seqs) == 0 {
		t.s.opts.Recorder.reflection(0, ReflectionUnprompted, r, t.s.currentRound())
		t.s.out.send(ReflectionRecorded{Status: ReflectionUnprompted, Reflection: r})
	}
	for _, seq := range seqs {
		t.attachReply(seq, r.Text())
		t.s.opts.Recorder.reflection(seq, ReflectionAnswered, r, t.s.currentRound())
		t.s.out.send(ReflectionRecorded{Seq: seq, Status: ReflectionAnswered, Reflection: r})
	}
	t.reflections = append(t.reflections, *r)
	return r
}

// actOnReflection does what the round's reflection asked: replan
// (the replan path), decompose (the active step gets the sub-steps),
// ask_user (the user answers; headless stops with needs_user) or stop
// (the summary is the partial result).
func (t *task) actOnReflection(ctx context.Context) *stop {
	r := t.takeReflection()
	if r == nil {
		return nil
	}
	s := t.s
	switch r.Adjustment {
	case AdjustReplan:
		why := "the model's reflection: " + orNone(strings.Join(nonEmpty(r.Blockers), "; "), r.Progress)
		if snap := s.conv.abandon(why, s.now()); snap != nil {
			s.opts.Recorder.plan(snap)
			s.out.send(PlanChanged{Plan: *snap})
		} else {
			s.setState(StateReplanning, "no plan yet")
			t.checkpoints.pending = append(t.checkpoints.pending, "You asked to replan and there is no active plan: record one with update_plan (goal, success criteria, strategy, steps) before going on.")
		}
	case AdjustDecompose:
		if snap := s.conv.decompose(r.SubSteps, s.now()); snap != nil {
			s.setState(StateDecomposing, fmt.Sprintf("%d sub-steps", len(r.SubSteps)))
			s.opts.Recorder.plan(snap)
			s.setState(StatePlanning, fmt.Sprintf("revision %d", snap.Revision))
			s.out.send(PlanChanged{Plan: *snap})
		}
	case AdjustAskUser:
		return t.askUser(ctx, r.Question)
	case AdjustStop:
		s.setState(StateSynthesizing, "the model stopped at its reflection")
		t.result = r.Summary
		return &stop{reason: StopModelStopped, message: "the model stopped the task at its reflection: " + firstLine(r.Summary)}
	}
	return nil
}

// askUser puts the model's question to the user (the Asker); with nobody
// there the task stops with needs_user.
func (t *task) askUser(ctx context.Context, question string) *stop {
	asker := t.s.opts.Asker
	needs := &stop{reason: StopNeedsUser, message: "the model needs an answer from the user: " + question}
	if asker == nil {
		t.result = question
		return needs
	}
	in := Intervention{Kind: "ask_user", Why: question, Action: string(discipline.Ask), AtToolCall: t.limits.toolCalls}
	ans, err := asker.AskGuard(ctx, in)
	switch {
	case ctx.Err() != nil:
		return &stop{reason: StopCancelled, message: "cancelled at the model's question"}
	case err != nil || !ans.Continue:
		return needs
	}
	msg := "The user's answer to your question: " + orNone(ans.Guidance, "(no answer; go on as you judge best)")
	t.checkpoints.pending = append(t.checkpoints.pending, msg)
	return nil
}

func orNone(s, alt string) string {
	if strings.TrimSpace(s) == "" {
		return alt
	}
	return s
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ErrNoTask is /reflect with no task running.
var ErrNoTask = errors.New("no task is running: /reflect asks for a checkpoint in a running task")

// Reflect asks for a checkpoint after the round in flight, whatever the
// cadence (the TUI's /reflect).
func (s *Session) Reflect() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running {
		return ErrNoTask
	}
	s.forceCheckpoint = true
	return nil
}

// takeForcedCheckpoint reports and clears a /reflect request.
func (s *Session) takeForcedCheckpoint() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.forceCheckpoint
	s.forceCheckpoint = false
	return f
}

func hasKind(ins []discipline.Intervention, k discipline.Kind) bool {
	for _, in := range ins {
		if in.Kind == k {
			return true
		}
	}
	return false
}
