package telemetry

import (
	"context"
	"encoding/json"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
)

// ExportSession builds a stored session's spans, with the times the
// datalog recorded, and returns how many it made; Flush sends them. The
// tree is the live one: session → task → round → tool execution. A tool
// call's start is not stored: calls are laid end to end after the
// model's answer, each as long as it ran.
func (e *Exporter) ExportSession(d *datalog.SessionDetail) int {
	s := d.Session
	h := &history{e: e, conv: s.ID, provider: s.Provider, model: s.Model}
	sessAttrs := []attribute.KeyValue{keyProvider.String(s.Provider), keyRequestModel.String(s.Model), keyConversation.String(s.ID),
		keySessionID.String(s.ID), attribute.String("keel.session.source", "datalog"), keyStopReason.String(s.StopReason)}
	if e.opts.LogContent {
		sessAttrs = append(sessAttrs, keyWorkspace.String(e.content.text(s.ProjectRoot)))
	}
	ctx, span := e.tracer.Start(context.Background(), "keel session", trace.WithTimestamp(s.Started), trace.WithAttributes(sessAttrs...))
	end := s.Started
	for _, task := range byTask(d.Rounds) {
		if t := h.task(ctx, task); t.After(end) {
			end = t
		}
	}
	if s.Ended.After(end) {
		end = s.Ended
	}
	span.End(trace.WithTimestamp(end))
	return h.spans + 1
}

// history carries what the spans of one stored session share.
type history struct {
	e        *Exporter
	conv     string
	provider string
	model    string // the datalog keeps one model per session
	plan     planPosition
	spans    int
}

// byTask groups rounds by task, in order.
func byTask(rounds []*datalog.RoundDetail) [][]*datalog.RoundDetail {
	var out [][]*datalog.RoundDetail
	for _, rd := range rounds {
		if n := len(out); n > 0 && out[n-1][0].Round.TaskSeq == rd.Round.TaskSeq {
			out[n-1] = append(out[n-1], rd)
			continue
		}
		out = append(out, []*datalog.RoundDetail{rd})
	}
	return out
}

// task exports one task's span and rounds, and returns when it ended.
func (h *history) task(parent context.Context, rounds []*datalog.RoundDetail) time.Time {
	first := rounds[0]
	attrs := []attribute.KeyValue{keyOperation.String(opInvokeAgent), keyAgentName.String(agentName), keyTaskSeq.Int(first.Round.TaskSeq),
		keyConversation.String(h.conv), keyTaskRounds.Int(len(rounds))}
	if h.e.opts.LogContent {
		if p := firstText(first.Messages, "user"); p != "" {
			attrs = append(attrs, keyInputMessages.String(h.e.content.messages("user", p, "")))
		}
	}
	ctx, span := h.e.tracer.Start(parent, opInvokeAgent+" "+agentName, trace.WithTimestamp(first.Round.Started), trace.WithAttributes(attrs...))
	end, calls, reason := first.Round.Started, 0, ""
	for _, rd := range rounds {
		if t := h.round(ctx, rd); t.After(end) {
			end = t
		}
		calls += len(rd.ToolCalls)
		if r := stopOf(rd.Transitions); r != "" {
			reason = r
		}
	}
	span.SetAttributes(keyTaskToolCalls.Int(calls))
	if reason != "" {
		span.SetAttributes(keyStopReason.String(reason))
		stopStatus(span, reason)
	}
	span.End(trace.WithTimestamp(end))
	h.spans++
	return end
}

// stopOf is the stop reason a task's last transition names, or "".
func stopOf(ts []datalog.StateTransition) string {
	for i := len(ts) - 1; i >= 0; i-- {
		switch agent.State(ts[i].To) {
		case agent.StateDone, agent.StateHalted, agent.StateFailed:
			return ts[i].Detail
		}
	}
	return ""
}

// round exports a round and its tool calls, and returns when it ended.
func (h *history) round(parent context.Context, rd *datalog.RoundDetail) time.Time {
	r := rd.Round
	f := roundFacts{seq: r.Seq, provider: h.provider, model: h.model, finishReason: r.FinishReason, retries: r.Retries,
		firstToken: r.FirstToken, response: r.Duration, planStep: h.plan.step, stepTitle: h.plan.title}
	f.usage.PromptTokens, f.usage.CompletionTokens, f.usage.CachedTokens = r.TokensIn, r.TokensOut, r.TokensCached
	if datalog.CostKnown(r.Cost, r.TokensIn+r.TokensOut) {
		c := r.Cost
		f.cost = &c
	}
	if h.e.opts.LogContent {
		f.answer = firstText(rd.Messages, "assistant")
	}
	ctx, span := h.e.tracer.Start(parent, roundName(f.model), trace.WithTimestamp(r.Started), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(append(f.attrs(), keyConversation.String(h.conv))...))
	if h.e.opts.LogContent {
		span.SetAttributes(f.contentAttrs(h.e.content)...)
	}
	at := r.Started.Add(r.Duration)
	for _, c := range rd.ToolCalls {
		at = h.tool(ctx, c, at)
	}
	for _, tr := range rd.Transitions {
		if tr.At.After(at) {
			at = tr.At
		}
	}
	h.interventions(span, rd.Interventions, at)
	h.follow(rd.Plans)
	span.End(trace.WithTimestamp(at))
	h.spans++
	return at
}

func (h *history) tool(parent context.Context, c datalog.ToolCall, start time.Time) time.Time {
	f := toolFacts{callID: c.CallID, name: c.Name, isError: c.IsError, denied: c.Permission == "deny", decision: c.Permission,
		decidedBy: c.DecidedBy, run: c.Duration, args: c.Arguments, result: c.Result}
	_, span := h.e.tracer.Start(parent, toolName(c.Name), trace.WithTimestamp(start),
		trace.WithAttributes(append(f.attrs(), keyConversation.String(h.conv))...))
	if h.e.opts.LogContent {
		span.SetAttributes(f.contentAttrs(h.e.content)...)
	}
	if f.outcome() != "ok" {
		span.SetStatus(codes.Error, f.outcome())
	}
	end := start.Add(c.Duration)
	span.End(trace.WithTimestamp(end))
	h.spans++
	return end
}

func (h *history) interventions(span trace.Span, ins []datalog.Intervention, at time.Time) {
	var kinds []string
	for _, in := range ins {
		kinds = append(kinds, in.Kind)
		attrs := []attribute.KeyValue{keyInterventionKind.String(in.Kind), keyInterventionAct.String(in.Action), keyInterventionAt.Int(in.AtToolCall)}
		if h.e.opts.LogContent {
			attrs = append(attrs, keyInterventionWhy.String(h.e.content.text(in.Why)), keyInterventionMsg.String(h.e.content.text(in.Message)))
		}
		if in.Kind == "reflection" {
			span.SetAttributes(keyCheckpoint.Bool(true))
		}
		span.AddEvent("keel.intervention", trace.WithTimestamp(at), trace.WithAttributes(attrs...))
	}
	if len(kinds) > 0 {
		span.SetAttributes(keyGuard.StringSlice(kinds))
	}
}

// follow keeps the plan's active step for the rounds after these snapshots.
func (h *history) follow(plans []datalog.PlanSnapshot) {
	if len(plans) == 0 {
		return
	}
	var p agent.Plan
	if json.Unmarshal(plans[len(plans)-1].Plan, &p) == nil {
		h.plan = position(p)
	}
}

// firstText is the first message of role with text.
func firstText(msgs []datalog.Message, role string) string {
	for _, m := range msgs {
		if string(m.Msg.Role) == role && m.Msg.Content != "" {
			return m.Msg.Content
		}
	}
	return ""
}
