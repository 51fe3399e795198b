package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent/hooks"
	"github.com/keel-dev/keel/agent/llm"
	"github.com/keel-dev/keel/tools"
)

const summaryInstruction = `Summarize the conversation below for your own later use; it will replace the older part of the history. Keep: the user's task and constraints, decisions made, files read and what they showed, files changed and how, commands run and their results, errors still open, and what remains to do. Be factual and compact; no advice.`

// compactIfNeeded summarizes older rounds when the next request would pass
// compact_at of the context window, or always when force is set (the
// server said the context was exceeded). It stops the task when the cap of
// compactions is reached or there is nothing left to compact.
func (t *task) compactIfNeeded(ctx context.Context, force bool) *stop {
	s := t.s
	window := s.opts.ContextWindow
	at := s.opts.Limits.CompactAt
	if !force && (window <= 0 || at <= 0 || !t.overBudget()) {
		return nil
	}
	if t.compaction.compactions >= s.opts.Limits.MaxCompactions || compactionCut(s.History(), s.opts.Limits.KeepRounds) <= 0 {
		return t.lastResort()
	}
	t.compaction.compactions++
	t.backToWork()
	s.setState(StateCompacting, fmt.Sprintf("compaction %d of %d", t.compaction.compactions, s.opts.Limits.MaxCompactions))
	usage, err := s.compactHistory(ctx, t.prompt, "auto")
	t.limits.usage = t.limits.usage.Add(usage)
	if err == nil {
		s.resumeState("")
	}
	switch {
	case errors.Is(err, errNothingToCompact):
		return t.lastResort()
	case err != nil && ctx.Err() != nil:
		return &stop{reason: StopCancelled, message: "cancelled while compacting"}
	case err != nil:
		return &stop{reason: StopProviderError, message: "compacting the conversation failed: " + err.Error(), err: err}
	}
	t.compaction.compacted = true
	t.compaction.lastPrompt, t.compaction.estAtLast = 0, 0 // sizes of the old history no longer apply
	if t.overBudget() {
		t.fitTail() // the verbatim tail alone is too large: its oversized tool results are cut
	}
	return nil
}

// lastResort is what is left when nothing more can be compacted: the
// verbatim tail's oversized tool results are cut, or the task stops with
// a message naming what is too large.
func (t *task) lastResort() *stop {
	if t.fitTail() {
		return nil
	}
	return &stop{reason: StopContextOverflow, message: fmt.Sprintf("the conversation no longer fits the context window after %s: %s; start a new task or raise context_window",
		count(t.compaction.compactions, "compaction"), t.s.tooLarge())}
}

// overBudget reports whether the next request would pass compact_at of
// the context window.
func (t *task) overBudget() bool {
	s := t.s
	return float64(s.estimateNext(t))/float64(s.opts.ContextWindow) >= s.opts.Limits.CompactAt
}

// errNothingToCompact: the history is only its last round.
var errNothingToCompact = errors.New("nothing to compact yet: the conversation is already short")

// compactHistory replaces the older part of the history with a summary
// the model writes, keeping the last rounds verbatim, and returns the
// summary's token usage. prompt is the task the summary restates.
func (s *Session) compactHistory(ctx context.Context, prompt, trigger string) (llm.Usage, error) {
	hist := s.History()
	cut := compactionCut(hist, s.opts.Limits.KeepRounds)
	if cut <= 0 {
		return llm.Usage{}, errNothingToCompact
	}
	s.runHooks(ctx, hooks.Input{HookEventName: hooks.PreCompact, Trigger: trigger}) // shown; it cannot stop a compaction
	summary, usage, err := s.summarize(ctx, hist[:cut])
	if err != nil {
		return usage, err
	}
	kept := append([]llm.Message{{Role: llm.RoleUser, Content: s.compactedPreamble(prompt, summary)}}, hist[cut:]...)
	s.conv.replace(kept)
	s.opts.Recorder.compacted(len(hist) - len(kept) + 1)
	return usage, nil
}

// estimateNext estimates the next request's prompt tokens: the last
// request's size (as the server reported it) plus what was added since,
// at 4 bytes a token.
func (s *Session) estimateNext(t *task) int {
	est := s.estimateTokens()
	if t.compaction.lastPrompt == 0 {
		return est
	}
	return t.compaction.lastPrompt + max(est-t.compaction.estAtLast, 0)
}

// compactionCut is the index where the verbatim tail starts: the last
// keep rounds (an assistant message with its tool results) stay. It never
// separates a tool call from its result.
func compactionCut(hist []llm.Message, keep int) int {
	seen := 0
	for i := len(hist) - 1; i > 0; i-- {
		if hist[i].Role != llm.RoleAssistant {
			continue
		}
		seen++
		if seen == keep {
			return i
		}
	}
	// Short history: keep only the last round.
	for i := len(hist) - 1; i > 0; i-- {
		if hist[i].Role == llm.RoleAssistant {
			return i
		}
	}
	return 0
}

// summarize asks the model for a summary of msgs, without tools.
func (s *Session) summarize(ctx context.Context, msgs []llm.Message) (string, llm.Usage, error) {
	req := llm.Request{
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: summaryInstruction},
			{Role: llm.RoleUser, Content: transcript(msgs)},
		},
		MaxOutputTokens: s.opts.MaxOutputTokens,
	}
	resp, err := s.provider().Stream(ctx, req, nil, func(Retrying) {})
	if err != nil {
		return "", llm.Usage{}, err
	}
	s.addUsage(resp.Usage)
	return resp.Content, resp.Usage, nil
}

// compactedPreamble opens the compacted history: the summary, the task,
// and the current plan (project instructions stay in the system prompt).
func (s *Session) compactedPreamble(prompt, summary string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s to fit the context window.]\n\nThe task: %s\n\nSummary of the work so far:\n%s\n", llm.CompactedMark, prompt, strings.TrimSpace(summary))
	b.WriteString(notesBlock(s.Notes()))
	if p := s.Plan(); p != nil {
		data, _ := json.Marshal(p)
		fmt.Fprintf(&b, "\nThe current plan (keep it up to date with update_plan):\n%s\n", data)
	}
	return b.String()
}

// transcript renders messages as plain text for the summarizer.
func transcript(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "## %s\n", m.Role)
		if m.Content != "" {
			b.WriteString(tools.CapOutput(m.Content, 8<<10))
			b.WriteString("\n")
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "call %s %s\n", c.Name, tools.CapOutput(c.Arguments, 2<<10))
		}
	}
	return b.String()
}
