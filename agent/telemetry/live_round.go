package telemetry

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/keel-dev/keel/agent"
)

// planPosition is the plan's active step, as a round's span names it.
type planPosition struct {
	step  string // "2/5"
	title string
}

func (t *SessionTracer) parent() context.Context {
	switch {
	case t.round != nil:
		return t.round.ctx
	case t.taskCtx != nil:
		return t.taskCtx
	}
	t.begin()
	return t.ctx
}

func (t *SessionTracer) startRound(e agent.RoundFinished) {
	now := time.Now()
	t.endRound(now)
	model := e.Model
	if model == "" {
		model = t.info.Model
	}
	f := roundFacts{seq: e.Seq, provider: t.info.Provider, model: model, finishReason: e.FinishReason, usage: e.Usage,
		firstToken: e.FirstToken, response: e.Duration, retries: t.retries, planStep: t.plan.step, stepTitle: t.plan.title}
	if t.e.opts.LogContent {
		f.answer = t.answer.String()
	}
	t.answer.Reset()
	t.retries = 0
	start := now.Add(-e.Duration)
	ctx := t.parent()
	r := &openRound{facts: f, start: start}
	r.ctx, r.span = t.e.tracer.Start(ctx, roundName(model), trace.WithTimestamp(start), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(f.attrs()...))
	if t.e.opts.LogContent {
		r.span.SetAttributes(f.contentAttrs(t.e.content)...)
	}
	t.round = r
}

// roundCost is the round's share of the session's cost, which
// UsageUpdated carries right after RoundFinished.
func (t *SessionTracer) roundCost(e agent.UsageUpdated) {
	if e.CostUSD == nil {
		return
	}
	c := *e.CostUSD - t.lastCost
	t.lastCost = *e.CostUSD
	if t.round != nil && t.round.facts.cost == nil {
		t.round.facts.cost = &c
		t.round.span.SetAttributes(keyCost.Float64(c))
	}
}

func (t *SessionTracer) endRound(at time.Time) {
	r := t.round
	if r == nil {
		return
	}
	t.endTools(at)
	if len(r.kinds) > 0 {
		r.span.SetAttributes(keyGuard.StringSlice(r.kinds))
	}
	t.conversation(r.span)
	r.span.End(trace.WithTimestamp(at))
	t.e.inst.round(r.facts)
	t.e.inst.roundEnded(r.facts.model, at.Sub(r.start))
	t.round = nil
}

func (t *SessionTracer) startTool(e agent.ToolStarted) {
	_, span := t.e.tracer.Start(t.parent(), toolName(e.Name), trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(keyOperation.String(opExecuteTool), keyToolName.String(e.Name), keyToolCallID.String(e.CallID)))
	t.tools[e.CallID] = span
}

func (t *SessionTracer) endTool(e agent.ToolFinished) {
	span, ok := t.tools[e.CallID]
	if !ok { // a call answered without starting (skipped): a span all the same
		_, span = t.e.tracer.Start(t.parent(), toolName(e.Name))
	}
	delete(t.tools, e.CallID)
	f := toolFacts{callID: e.CallID, name: e.Name, isError: e.IsError, denied: e.Denied, decision: e.Decision,
		decidedBy: e.DecidedBy, exitCode: e.ExitCode, run: e.Duration, args: e.Args, result: e.Output}
	span.SetAttributes(f.attrs()...)
	if t.e.opts.LogContent {
		span.SetAttributes(f.contentAttrs(t.e.content)...)
	}
	if f.outcome() != "ok" {
		span.SetStatus(codes.Error, f.outcome())
	}
	t.conversation(span)
	span.End()
	t.e.inst.tool(f)
}

// endTools ends the spans of calls that never finished (a cancel).
func (t *SessionTracer) endTools(at time.Time) {
	for id, span := range t.tools {
		span.SetAttributes(keyToolOutcome.String("cancelled"), keyErrorType.String("cancelled"))
		span.End(trace.WithTimestamp(at))
		delete(t.tools, id)
	}
}

// intervention is an event on the round it followed (or the task): the
// kind, the action and the figures' line; its message only with content.
func (t *SessionTracer) intervention(in agent.Intervention) {
	attrs := []attribute.KeyValue{keyInterventionKind.String(in.Kind), keyInterventionAct.String(in.Action), keyInterventionAt.Int(in.AtToolCall)}
	if t.e.opts.LogContent {
		attrs = append(attrs, keyInterventionWhy.String(t.e.content.text(in.Why)), keyInterventionMsg.String(t.e.content.text(in.Message)))
	}
	t.e.inst.intervention(in.Kind, in.Action)
	if t.round != nil {
		t.round.kinds = append(t.round.kinds, in.Kind)
		if in.Kind == "reflection" {
			t.round.span.SetAttributes(keyCheckpoint.Bool(true))
		}
		t.round.span.AddEvent("keel.intervention", trace.WithAttributes(attrs...))
		return
	}
	if t.task != nil {
		t.task.AddEvent("keel.intervention", trace.WithAttributes(attrs...))
	}
}

func (t *SessionTracer) planChanged(p agent.Plan) {
	t.plan = position(p)
	if t.task == nil {
		return
	}
	c := p.Counts()
	t.task.AddEvent("keel.plan", trace.WithAttributes(keyPlanStatus.String(p.Status), keyPlanStep.String(t.plan.step),
		attribute.Int("keel.plan.steps", len(p.Steps)), attribute.Int("keel.plan.completed", c[agent.StepCompleted])))
}

// position finds the plan's active step (else its first pending one).
func position(p agent.Plan) planPosition {
	at := -1
	for i, s := range p.Steps {
		if s.Status == agent.StepActive {
			at = i
			break
		}
		if at < 0 && s.Status == agent.StepPending {
			at = i
		}
	}
	if at < 0 {
		return planPosition{}
	}
	return planPosition{step: fmt.Sprintf("%d/%d", at+1, len(p.Steps)), title: p.Steps[at].Title}
}
