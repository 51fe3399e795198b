package telemetry

import (
	"context"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/keel-dev/keel/agent"
)

// SessionInfo describes a live session to its tracer.
type SessionInfo struct {
	Provider  string
	Model     string // the model at the start; each round names its own
	Resumed   bool
	Workspace string // sent only with LogContent
	// ID is the datalog's session id when known, without waiting; nil or
	// "" while a datalog opened in the background is not open yet.
	ID func() string
}

// SessionTracer turns one session's events into spans and metrics. Its
// Observe is agent.Options.Observer: it runs on the agent's goroutines,
// allocates a few spans and returns; the network is another goroutine's.
type SessionTracer struct {
	e    *Exporter
	info SessionInfo

	started time.Time // when the session was made

	mu       sync.Mutex
	ctx      context.Context // the session span's; nil before the first task
	session  trace.Span      // nil before the first task
	task     trace.Span
	taskCtx  context.Context
	round    *openRound
	tools    map[string]trace.Span
	plan     planPosition
	retries  int
	answer   strings.Builder // the round's text, with LogContent
	lastCost float64         // the session's cost at the last round
	ended    bool
}

// openRound is the round whose span is open: from its request until the
// next request or the task's end, so its tools are its children.
type openRound struct {
	span  trace.Span
	ctx   context.Context
	facts roundFacts
	start time.Time
	kinds []string // interventions that fired after it
}

// Session starts a session's span and returns its tracer.
func (e *Exporter) Session(info SessionInfo) *SessionTracer {
	return &SessionTracer{e: e, info: info, tools: map[string]trace.Span{}, started: time.Now()}
}

// begin starts the session's span, dated from the session's start, with
// its first task: a session opened and closed without a prompt sends
// nothing.
func (t *SessionTracer) begin() {
	if t.session != nil {
		return
	}
	attrs := []attribute.KeyValue{keyProvider.String(t.info.Provider), keyRequestModel.String(t.info.Model), keyResumed.Bool(t.info.Resumed)}
	if t.e.opts.LogContent && t.info.Workspace != "" {
		attrs = append(attrs, keyWorkspace.String(t.e.content.text(t.info.Workspace)))
	}
	t.ctx, t.session = t.e.tracer.Start(context.Background(), "keel session", trace.WithTimestamp(t.started), trace.WithAttributes(attrs...))
}

// Bind names the session's id as it becomes known (the session is made
// after its tracer, whose Observe it takes); id must not wait.
func (t *SessionTracer) Bind(id func() string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.info.ID = id
	t.mu.Unlock()
}

// Observe is agent.Options.Observer.
func (t *SessionTracer) Observe(ev agent.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return
	}
	switch e := ev.(type) {
	case agent.TextDelta:
		if t.e.opts.LogContent {
			t.answer.WriteString(e.Text)
		}
	case agent.TaskStarted:
		t.startTask(e)
	case agent.Retrying:
		t.retries++
	case agent.StateChanged:
		if e.To == agent.StateThinking || e.To == agent.StateCompacting {
			t.endRound(time.Now()) // the next request: the round before it is over
		}
	case agent.RoundFinished:
		t.startRound(e)
	case agent.UsageUpdated:
		t.roundCost(e)
	case agent.ToolStarted:
		t.startTool(e)
	case agent.ToolFinished:
		t.endTool(e)
	case agent.InterventionFired:
		t.intervention(e.Intervention)
	case agent.PlanChanged:
		t.planChanged(e.Plan)
	case agent.TaskStopped:
		t.endTask(e)
	}
}

// End ends the session's span (and any span a killed task left open),
// naming the session by id, the datalog's (or "" without one).
func (t *SessionTracer) End(id string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended || t.session == nil {
		t.ended = true
		return
	}
	now := time.Now()
	t.endRound(now)
	t.endTools(now)
	if t.task != nil {
		t.task.SetAttributes(keyStopReason.String("interrupted"))
		t.task.End(trace.WithTimestamp(now))
		t.task = nil
	}
	if id != "" {
		t.session.SetAttributes(keyConversation.String(id), keySessionID.String(id))
	}
	t.session.End(trace.WithTimestamp(now))
	t.ended = true
}

// conversation tags a span with the session's id, once it is known.
func (t *SessionTracer) conversation(s trace.Span) {
	if t.info.ID == nil {
		return
	}
	if id := t.info.ID(); id != "" {
		s.SetAttributes(keyConversation.String(id))
	}
}

func (t *SessionTracer) startTask(e agent.TaskStarted) {
	t.begin()
	if t.task != nil { // a task that never said it stopped
		t.task.End()
	}
	attrs := []attribute.KeyValue{keyOperation.String(opInvokeAgent), keyAgentName.String(agentName), keyTaskSeq.Int(e.Seq)}
	if t.e.opts.LogContent {
		attrs = append(attrs, keyInputMessages.String(t.e.content.messages("user", e.Prompt, "")))
	}
	t.taskCtx, t.task = t.e.tracer.Start(t.ctx, opInvokeAgent+" "+agentName, trace.WithTimestamp(e.At), trace.WithAttributes(attrs...))
	t.retries = 0
	t.answer.Reset()
}

func (t *SessionTracer) endTask(e agent.TaskStopped) {
	now := time.Now()
	t.endRound(now)
	t.endTools(now)
	if t.task == nil {
		return
	}
	sum := e.Summary
	t.task.SetAttributes(keyStopReason.String(string(e.Reason)), keyTaskRounds.Int(sum.Turns), keyTaskToolCalls.Int(sum.ToolCalls),
		keyInputTokens.Int(sum.Usage.PromptTokens), keyOutputTokens.Int(sum.Usage.CompletionTokens))
	if sum.CostUSD != nil {
		t.task.SetAttributes(keyCost.Float64(*sum.CostUSD))
	}
	if t.e.opts.LogContent && e.Result != "" {
		t.task.SetAttributes(keyOutputMessages.String(t.e.content.messages("assistant", e.Result, "")))
	}
	stopStatus(t.task, string(e.Reason))
	t.conversation(t.task)
	t.task.End(trace.WithTimestamp(now))
	t.task, t.taskCtx = nil, nil
	t.e.inst.task(string(e.Reason))
}

// stopStatus marks a span whose task did not complete: error.type is the
// stop reason, and a provider's failure or an overflow is an error.
func stopStatus(s trace.Span, reason string) {
	if reason == string(agent.StopCompleted) {
		return
	}
	s.SetAttributes(keyErrorType.String(reason))
	if reason == string(agent.StopProviderError) || reason == string(agent.StopContextOverflow) {
		s.SetStatus(codes.Error, reason)
	}
}
