package agent

import (
	"context"
	"fmt"

	"github.com/keel-dev/keel/agent/llm"
)

// Provider streams one round from the model, retrying and falling back as
// configured, and reports each retry through onRetry before it waits.
type Provider interface {
	Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta), onRetry func(Retrying)) (llm.Response, error)
}

// stream sends the current history and forwards deltas as events.
func (t *task) stream(ctx context.Context) (llm.Response, error) {
	s := t.s
	t.reqMessages = s.requestMessages(t.reqMessages)
	req := llm.Request{
		Messages:        t.reqMessages,
		Tools:           s.toolDefs(),
		MaxOutputTokens: s.opts.MaxOutputTokens,
		Capture:         s.opts.CaptureBodies,
		BeforeSend:      s.opts.Recorder.settle,
		OnSilence: func(q llm.Silence) {
			s.out.send(ProviderSilent{Provider: q.Provider, Quiet: q.Quiet, Timeout: q.Timeout})
		},
	}
	t.compaction.lastPrompt = s.estimateTokens()
	t.compaction.estAtLast = t.compaction.lastPrompt
	t.inFlight.reqMessages = len(req.Messages)
	t.inFlight.roundRetries = 0
	t.inFlight.roundStarted = s.now()
	t.limits.rounds++
	s.mu.Lock()
	s.roundSeq++
	s.mu.Unlock()
	onDelta := func(d llm.Delta) {
		if t.inFlight.retried {
			t.inFlight.retried = false // the retried answer is streaming: no longer waiting
			s.resumeState("")
		}
		s.forwardDelta(d)
	}
	sent := s.now()
	resp, err := s.provider().Stream(ctx, req, onDelta, t.onRetry)
	t.limits.apiTime += s.now().Sub(sent)
	if err != nil {
		return resp, err
	}
	t.account(resp)
	return resp, nil
}

// forwardDelta turns a stream increment into an event without blocking.
func (s *Session) forwardDelta(d llm.Delta) {
	switch d.Kind {
	case llm.DeltaText:
		s.out.delta(TextDelta{Text: d.Text})
	case llm.DeltaReasoning:
		s.out.delta(ReasoningDelta{Text: d.Text})
	case llm.DeltaToolCall:
		s.out.delta(ToolCallStreaming{Index: d.ToolIndex, Name: d.ToolName, ArgBytes: len(d.Text)})
	}
}

func (t *task) onRetry(r Retrying) {
	t.inFlight.roundRetries++
	t.inFlight.retried = true
	t.s.out.send(AnswerRestarted{Reason: r.Err})
	t.s.out.send(r)
	t.s.setState(StateRetrying, retryDetail(r))
	t.s.opts.Recorder.retry(r)
}

// account adds a response's usage to the task and session totals and
// reports them.
func (t *task) account(resp llm.Response) {
	s := t.s
	u := resp.Usage
	if !resp.UsageKnown {
		u = llm.Usage{PromptTokens: t.compaction.lastPrompt, CompletionTokens: (len(resp.Content) + len(resp.Reasoning) + toolCallBytes(resp.ToolCalls)) / 4}
	} else {
		t.trustPromptTokens(u.PromptTokens)
	}
	t.limits.usage = t.limits.usage.Add(u)
	total, cost := s.addUsage(u)
	_, model, _ := s.live.current()
	s.out.send(RoundFinished{Seq: s.currentRound(), Model: model, FinishReason: resp.FinishReason, Usage: u, FirstToken: resp.FirstToken, Duration: resp.Duration})
	s.out.send(UsageUpdated{Round: u, Task: t.limits.usage, Session: total, ContextTokens: t.compaction.lastPrompt, ContextWindow: s.opts.ContextWindow, CostUSD: cost, ToolCalls: t.limits.toolCalls, NextCheckpointIn: t.nextCheckpointIn()})
}

// usageTrustRatio: a server's prompt-token count less than the estimate
// divided by this is not believed for compaction. keel's estimate (4 bytes
// a token, tools left out) runs low, never this far high.
const usageTrustRatio = 2

// trustPromptTokens takes the server's prompt-token count of the last
// request as the context's size, unless it is far below keel's own
// estimate of that request (a proxy that counts only the new messages, or
// a server that makes its figures up): then compaction goes by the
// estimate, and the user is told once a task. The server's figure still
// counts for tokens and cost.
func (t *task) trustPromptTokens(reported int) {
	est := t.compaction.estAtLast
	// A small request's count decides nothing (compaction is far off), and
	// fake servers in tests report small fixed figures: no doubt there.
	if reported*usageTrustRatio >= est || est < t.s.opts.ContextWindow/8 {
		t.compaction.lastPrompt = reported
		return
	}
	t.compaction.lastPrompt = est
	if !t.compaction.doubted {
		t.compaction.doubted = true
		t.s.out.send(Notice{Text: fmt.Sprintf("the server reported %d prompt tokens for a request keel estimates at %d; compaction goes by keel's estimate",
			reported, est)})
	}
}

// costPtr returns the session cost, or nil when no price is configured.
// The caller holds s.mu.
func (s *Session) costPtr() *float64 {
	if s.opts.Prices == nil {
		return nil
	}
	c := s.cost
	return &c
}

func (s *Session) currentRound() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roundSeq
}

func toolCallBytes(calls []llm.ToolCall) int {
	n := 0
	for _, c := range calls {
		n += len(c.Name) + len(c.Arguments)
	}
	return n
}

// requestMessages is the system prompt followed by the history, in buf:
// the slice is reused round to round (the client keeps none of it), and
// its elements are shared, not copied.
func (s *Session) requestMessages(buf []llm.Message) []llm.Message {
	hist := s.conv.view()
	msgs := buf[:0]
	if s.opts.SystemPrompt != "" {
		msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: s.opts.SystemPrompt})
	}
	if !s.conv.hasImages() {
		return append(msgs, hist...)
	}
	_, model, _ := s.live.current()
	return appendWithImages(msgs, hist, s.AcceptsImages(), model)
}

// estimateTokens estimates the next request's prompt tokens at 4 bytes a
// token over the system prompt and history. The history's size is kept
// as it grows, so this costs nothing per round.
func (s *Session) estimateTokens() int {
	return (len(s.opts.SystemPrompt) + s.conv.size()) / 4
}

// ContextEstimate is estimateTokens for the UI: a resumed session's
// context figure before its first round reports the server's count.
func (s *Session) ContextEstimate() int { return s.estimateTokens() }

// historyBytes is the size of messages as estimateTokens counts it.
func historyBytes(msgs []llm.Message) int {
	n := 0
	for i := range msgs {
		n += len(msgs[i].Content) + toolCallBytes(msgs[i].ToolCalls) + imageBytes(msgs[i].Images) + 8
	}
	return n
}

// addUsage adds a response's usage to the session's totals and cost, and
// returns the new totals.
func (s *Session) addUsage(u llm.Usage) (llm.Usage, *float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.usage = s.usage.Add(u)
	s.cost += s.opts.Prices.Cost(u)
	return s.usage, s.costPtr()
}
