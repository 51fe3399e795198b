package demo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/llm"
)

// DefaultDelay is the pause between streamed chunks that lets a person
// watch the answer arrive.
const DefaultDelay = 20 * time.Millisecond

// Provider is the scripted model: it answers every request from the
// request alone, with no network, and streams the answer in small pieces.
// The zero value streams without pauses, as tests want. It keeps no state,
// so it is safe for concurrent use and a retried request gets the same
// answer.
type Provider struct {
	// Delay is the pause between streamed chunks; 0 streams at once.
	Delay time.Duration
	// Headless leaves the tour of the screen out of the final answer.
	Headless bool
}

var _ agent.Provider = (*Provider)(nil)

// NewProvider returns a Provider that streams at a readable pace.
func NewProvider() *Provider { return &Provider{Delay: DefaultDelay} }

// Name and Model label the demo in the UI and the datalog.
const (
	Name  = "demo"
	Model = "scripted"
)

// ContextWindow is the window the demo claims, so the status bar can show
// how much of it is used. The story never comes near it.
const ContextWindow = 32768

// Stream implements agent.Provider: it decides the next answer from
// req.Messages and streams it — reasoning, text, then tool calls — through
// onDelta. Cancelling ctx stops it with what was streamed so far. It never
// retries, so onRetry is not called.
func (p *Provider) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta), _ func(agent.Retrying)) (llm.Response, error) {
	st := &streamer{ctx: ctx, delay: p.Delay, onDelta: onDelta, start: time.Now()}
	r := answer(req.Messages, p.Headless)
	var resp llm.Response
	err := st.run(r, readProgress(req.Messages).rounds+1, &resp)
	resp.FirstToken, resp.Duration = st.first, time.Since(st.start)
	if err != nil {
		return resp, err
	}
	resp.FinishReason = "stop"
	if len(resp.ToolCalls) > 0 {
		resp.FinishReason = "tool_calls"
	}
	resp.Usage, resp.UsageKnown = usage(req, resp), true
	return resp, nil
}

// streamer paces one answer's deltas.
type streamer struct {
	ctx     context.Context
	delay   time.Duration
	onDelta func(llm.Delta)
	start   time.Time
	first   time.Duration
}

// thinkChunks is the pause before the first token, in chunk delays: a
// real model takes a moment to start.
const thinkChunks = 12

func (s *streamer) run(r reply, round int, resp *llm.Response) error {
	if err := s.wait(thinkChunks); err != nil {
		return err
	}
	if err := s.text(llm.DeltaReasoning, r.reasoning, &resp.Reasoning); err != nil {
		return err
	}
	if err := s.text(llm.DeltaText, r.text, &resp.Content); err != nil {
		return err
	}
	for i, c := range r.calls {
		tc := llm.ToolCall{ID: fmt.Sprintf("demo_%d_%d", round, i+1), Name: c.name, Arguments: c.encode()}
		if err := s.toolCall(i, tc); err != nil {
			return err
		}
		resp.ToolCalls = append(resp.ToolCalls, tc)
	}
	return nil
}

// text streams s a few words at a time, appending to into as it goes.
func (s *streamer) text(kind llm.DeltaKind, text string, into *string) error {
	for _, piece := range chunks(text, 3) {
		if err := s.wait(1); err != nil {
			return err
		}
		*into += piece
		s.emit(llm.Delta{Kind: kind, Text: piece})
	}
	return nil
}

// argChunk is how many argument bytes one tool-call delta carries.
const argChunk = 48

// toolCall streams a call's name, then its arguments in pieces. Only a
// whole call is added to the response, as a cut stream would drop it.
func (s *streamer) toolCall(i int, tc llm.ToolCall) error {
	args := tc.Arguments
	for off := 0; off == 0 || off < len(args); off += argChunk {
		if err := s.wait(1); err != nil {
			return err
		}
		s.emit(llm.Delta{Kind: llm.DeltaToolCall, ToolIndex: i, ToolName: tc.Name, Text: args[off:min(off+argChunk, len(args))]})
	}
	return nil
}

func (s *streamer) emit(d llm.Delta) {
	if s.first == 0 {
		s.first = time.Since(s.start)
	}
	if s.onDelta != nil {
		s.onDelta(d)
	}
}

// wait pauses n chunk delays, or returns early when ctx ends.
func (s *streamer) wait(n int) error {
	if s.delay <= 0 || n <= 0 {
		return s.ctx.Err()
	}
	t := time.NewTimer(time.Duration(n) * s.delay)
	defer t.Stop()
	select {
	case <-s.ctx.Done():
		return s.ctx.Err()
	case <-t.C:
		return nil
	}
}

// chunks splits text into pieces of n words, each keeping the spaces and
// newlines after it, so the pieces join back into text exactly.
func chunks(text string, n int) []string {
	words := strings.SplitAfter(text, " ")
	var out []string
	for i := 0; i < len(words); i += n {
		if piece := strings.Join(words[i:min(i+n, len(words))], ""); piece != "" {
			out = append(out, piece)
		}
	}
	return out
}

// usage estimates the round's tokens at four bytes a token, as a real
// provider would report them; the prefix up to the last answer counts as
// cached, as prompt caching would make it.
func usage(req llm.Request, resp llm.Response) llm.Usage {
	prompt, cached := 0, 0
	for _, t := range req.Tools {
		prompt += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	for _, m := range req.Messages {
		prompt += len(m.Content) + 16
		for _, c := range m.ToolCalls {
			prompt += len(c.Name) + len(c.Arguments)
		}
		if m.Role == llm.RoleAssistant {
			cached = prompt
		}
	}
	out := len(resp.Reasoning) + len(resp.Content)
	for _, c := range resp.ToolCalls {
		out += len(c.Name) + len(c.Arguments) + 8
	}
	return llm.Usage{PromptTokens: prompt / 4, CompletionTokens: out/4 + 1, CachedTokens: cached / 4 / 128 * 128}
}
