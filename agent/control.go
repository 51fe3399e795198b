package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/keel-dev/keel/agent/llm"
)

// provider is the current provider (SetProvider may swap it between rounds).
func (s *Session) provider() Provider {
	p, _, _ := s.live.current()
	return p
}

// SetProvider switches the model for the following rounds (the TUI's
// /model NAME). A round already streaming finishes on the old one.
func (s *Session) SetProvider(p Provider, model string) { s.live.setProvider(p, model) }

// Model is the model name the session shows.
func (s *Session) Model() string {
	_, m, _ := s.live.current()
	return m
}

// Compact summarizes the older part of the conversation now (the TUI's
// /compact), while no task runs. Cancel (Esc) stops it. It returns a
// one-line report.
func (s *Session) Compact(ctx context.Context) (string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return "", ErrBusy
	}
	s.running, s.cancel = true, cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running, s.cancel = false, nil
		s.mu.Unlock()
		s.setState(StateIdle, "")
	}()
	hist, before := s.History(), s.estimateTokens()
	s.setState(StateCompacting, "on request")
	if _, err := s.compactHistory(ctx, lastUserPrompt(hist), "manual"); err != nil {
		if errors.Is(err, errNothingToCompact) {
			return "", err
		}
		return "", fmt.Errorf("compacting the conversation failed: %w", err)
	}
	s.out.send(ContextCompacted{TokensBefore: before, TokensAfter: s.estimateTokens()})
	return fmt.Sprintf("compacted %s into a summary; %d remain", count(len(hist), "message"), len(s.History())), nil
}

// lastUserPrompt is the latest message the user typed, for the summary's
// statement of the task.
func lastUserPrompt(hist []llm.Message) string {
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role == llm.RoleUser && !strings.HasPrefix(hist[i].Content, "[") {
			return hist[i].Content
		}
	}
	return "(none recorded)"
}
