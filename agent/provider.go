package agent

import (
	"context"
	"fmt"

	"github.com/keel-dev/keel/agent/llm"
)

// RetryingProvider streams from the first client and falls back to the
// next ones, retrying as Retrier says. Each client carries its own model.
type RetryingProvider struct {
	Retrier llm.Retrier
	Clients []*llm.Client
}

var _ Provider = (*RetryingProvider)(nil)

// Stream implements Provider.
func (p *RetryingProvider) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta), onRetry func(Retrying)) (llm.Response, error) {
	r := p.Retrier
	r.OnRetry = func(i llm.RetryInfo) {
		if onRetry != nil {
			onRetry(Retrying{Provider: i.Provider, Kind: i.Kind.String(), Attempt: i.Attempt, Wait: i.Wait, Err: i.String(), Why: retryWhy(i)})
		}
	}
	return r.Stream(ctx, p.Clients, req, onDelta)
}

// retryWhy is a retry's cause in a few words, for the status line.
func retryWhy(i llm.RetryInfo) string {
	switch {
	case i.Kind == llm.KindRateLimited:
		return "rate limited by " + i.Provider
	case i.Kind == llm.KindIdle:
		return i.Provider + " went silent"
	case i.Err != nil && i.Err.Status != 0:
		return fmt.Sprintf("%s: HTTP %d", i.Provider, i.Err.Status)
	}
	return fmt.Sprintf("%s: %s", i.Provider, i.Kind)
}
