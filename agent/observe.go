package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/keel-dev/keel/discipline"
)

// Asker puts a guard's question to the user: keel stopped a loop, continue,
// stop, or give guidance. The TUI implements it; headless has none, so the
// question becomes a halt.
type Asker interface {
	AskGuard(ctx context.Context, in Intervention) (GuardAnswer, error)
}

// GuardAnswer is the user's answer to a guard's question.
type GuardAnswer struct {
	Continue bool
	Guidance string // sent to the model with the guard's message
}

// observe applies post-round discipline: it records and shows every
// intervention, queues the merged message, and keeps the decision for
// applyDecision.
func (t *task) observe(outs []outcome, endedTurn bool) []Intervention {
	s := t.s
	sum := t.roundSummary(outs, endedTurn)
	pol := s.live.policy()
	ins, st := discipline.AfterRound(sum, pol, t.discipline)
	t.discipline = st
	if !endedTurn && t.s.takeForcedCheckpoint() && !hasKind(ins, discipline.KindReflection) {
		cp, st := discipline.CheckpointNow(t.discipline, pol)
		ins, t.discipline = append(ins, cp), st
	}
	s.out.send(reportEvent(discipline.Report(st, pol)))
	d := discipline.Decide(ins)
	t.checkpoints.decision = d
	fired := make([]Intervention, 0, len(d.Shown))
	for _, in := range d.Shown {
		fired = append(fired, t.fire(in))
	}
	if s.structured() && t.checkpoints.fired != "" && d.Inject != "" {
		d.Inject += "\n" + reflectInstruction
		t.checkpoints.decision.Inject = d.Inject
	}
	if d.Halt == nil && d.Ask == nil && d.Inject != "" {
		t.checkpoints.pending = append(t.checkpoints.pending, d.Inject)
	}
	return fired
}

// fire turns a discipline finding into the agent's Intervention, numbers
// it, and shows it.
func (t *task) fire(in discipline.Intervention) Intervention {
	s := t.s
	s.mu.Lock()
	s.interSeq++
	seq := s.interSeq
	s.mu.Unlock()
	msg := in.Message
	if in.Action != discipline.Inject {
		msg = ""
	}
	out := Intervention{Seq: seq, Kind: string(in.Kind), AtToolCall: in.AtToolCall, Why: in.Why, Message: msg, Action: string(in.Action), Figures: in.Figures}
	switch in.Kind {
	case discipline.KindReflection:
		t.checkpoints.awaiting = append(t.checkpoints.awaiting, seq)
		t.checkpoints.fired = in.Why
	case discipline.KindDecompose:
		t.checkpoints.decompose = in.Why
	}
	t.Interventions = append(t.Interventions, out)
	s.out.send(InterventionFired{Intervention: out})
	return out
}

// applyDecision acts on the round's decision: plan failures become
// replanning messages, a halt stops the task, a question goes to the
// user, the model's reflection is acted on; then the state says what the
// next request waits for (replanning, reflecting or decomposing).
func (t *task) applyDecision(ctx context.Context) *stop {
	if st := t.replanMessages(); st != nil {
		return st
	}
	d := t.checkpoints.decision
	t.checkpoints.decision = discipline.Decision{}
	if d.Halt != nil {
		if d.Halt.Replan && t.failActiveStep("keel's guard stopped it: "+d.Halt.Why) {
			return t.replanMessages()
		}
		return t.haltStop(*d.Halt)
	}
	if d.Ask != nil {
		if st := t.askGuard(ctx, d); st != nil {
			return st
		}
	}
	if st := t.actOnReflection(ctx); st != nil {
		return st
	}
	if st := t.replanMessages(); st != nil {
		return st
	}
	t.settleWaiting()
	return nil
}

// askGuard puts a guard's question to the user; headless, it halts.
func (t *task) askGuard(ctx context.Context, d discipline.Decision) *stop {
	asker := t.s.opts.Asker
	if asker == nil {
		return t.haltStop(*d.Ask)
	}
	ans, err := asker.AskGuard(ctx, t.lastFired(d.Ask))
	if err != nil || !ans.Continue {
		if ctx.Err() != nil {
			return &stop{reason: StopCancelled, message: "cancelled at a guard's question"}
		}
		return t.haltStop(*d.Ask)
	}
	msg := d.Ask.Message
	if ans.Guidance != "" {
		msg += "\n\nThe user's guidance: " + ans.Guidance
	}
	t.checkpoints.pending = append(t.checkpoints.pending, msg)
	if d.Inject != "" {
		t.checkpoints.pending = append(t.checkpoints.pending, d.Inject)
	}
	return nil
}

// settleWaiting enters the state the next request waits in: replanning
// stays; a checkpoint just fired is reflecting until its answer; a
// request for sub-steps is decomposing until they come.
func (t *task) settleWaiting() {
	why, split := t.checkpoints.fired, t.checkpoints.decompose
	t.checkpoints.fired, t.checkpoints.decompose = "", ""
	switch {
	case t.s.currentState() == StateReplanning:
	case why != "" && len(t.checkpoints.awaiting) > 0:
		t.s.setState(StateReflecting, why)
	case split != "":
		t.s.setState(StateDecomposing, split)
	}
}

// haltStop is the stop for a guard's halt (or a question the user
// answered with stop). Stopping with plan_failed marks the plan failed.
func (t *task) haltStop(in discipline.Intervention) *stop {
	reason := StopReason(in.StopReason)
	if reason == "" {
		reason = StopLoopDetected
	}
	if reason == StopPlanFailed {
		t.s.markPlanFailed()
	}
	return &stop{reason: reason, message: fmt.Sprintf("keel stopped the task: %s", in.Why)}
}

// lastFired finds the agent's record of a discipline intervention.
func (t *task) lastFired(in *discipline.Intervention) Intervention {
	for i := len(t.Interventions) - 1; i >= 0; i-- {
		if t.Interventions[i].Kind == string(in.Kind) {
			return t.Interventions[i]
		}
	}
	return Intervention{Kind: string(in.Kind), Why: in.Why, Message: in.Message}
}

// answerInterventions attaches the response right after a checkpoint to
// it, when reflection is free text (structured reflection is answered by
// the reflect call: checkAnswered, takeReflection): its text is the
// answer; a response with none (only tool calls) leaves the checkpoint
// unanswered, and a later text (the task's final answer) is not its reply.
func (t *task) answerInterventions(text string) {
	if t.s.structured() || len(t.checkpoints.awaiting) == 0 {
		return
	}
	for _, seq := range t.checkpoints.awaiting {
		if strings.TrimSpace(text) == "" {
			t.s.out.send(ReflectionRecorded{Seq: seq, Status: ReflectionUnanswered})
			continue
		}
		t.attachReply(seq, text)
	}
	t.checkpoints.awaiting = nil
}

// attachReply attaches an answer to checkpoint seq: its record, the
// datalog's row and the card.
func (t *task) attachReply(seq int, text string) {
	for i := range t.Interventions {
		if t.Interventions[i].Seq == seq {
			t.Interventions[i].Reply = text
		}
	}
	t.s.opts.Recorder.reply(seq, text)
	t.s.out.send(InterventionAnswered{Seq: seq, Text: text})
}

// nextCheckpointIn is the number of tool calls until the next cadence
// checkpoint, or 0 when checkpoints are off.
func (t *task) nextCheckpointIn() int {
	cadence := t.s.live.policy().ReflectionCadence
	if cadence <= 0 {
		return 0
	}
	return max(discipline.NextCheckpointAt(t.discipline.LastReflectionAt(), cadence)-t.workCalls(), 0)
}

// commandOf extracts run_command's command line from its arguments.
func commandOf(args string) string {
	var a struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal([]byte(args), &a)
	return a.Command
}

// workdirOf extracts run_command's working directory from its arguments.
func workdirOf(args string) string {
	var a struct {
		Workdir string `json:"workdir"`
	}
	_ = json.Unmarshal([]byte(args), &a)
	return a.Workdir
}

// reportEvent turns the reflection report into its event.
func reportEvent(r discipline.ReflectionReport) ReportUpdated {
	ev := ReportUpdated{Lines: r.Lines()}
	for _, st := range r.Stalled {
		ev.Stalled = append(ev.Stalled, fmt.Sprintf("%s (%s)", st.Title, count(st.Rounds, "round")))
	}
	return ev
}
