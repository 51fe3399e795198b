package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The retry policy's defaults, used for zero fields of Retrier.
const (
	DefaultMaxRateLimitWaits   = 5
	DefaultMaxRateLimitWait    = 120 * time.Second
	DefaultMaxTransientRetries = 3
	DefaultBaseBackoff         = time.Second
	DefaultMaxBackoff          = 30 * time.Second
)

// Retrier is the retry policy around Client.Stream: 429s wait for
// Retry-After (capped), transient failures wait for Retry-After when the
// server sent one (a 503 often does) and otherwise back off exponentially
// with jitter, and when a client is exhausted the next one (a fallback provider)
// is tried. Auth, BadRequest, ContextLength and Cancelled return at once.
// Zero fields take the defaults above; a negative count disables that retry.
type Retrier struct {
	MaxRateLimitWaits   int                                              // waits on 429 per client
	MaxRateLimitWait    time.Duration                                    // cap on one Retry-After wait (any status)
	MaxTransientRetries int                                              // retries on transient failures per client
	BaseBackoff         time.Duration                                    // first transient backoff, doubled each time
	MaxBackoff          time.Duration                                    // cap on one transient backoff
	Sleep               func(ctx context.Context, d time.Duration) error // nil: a timer that honours ctx
	Rand                func() float64                                   // jitter source in [0,1); nil: math/rand/v2
	OnRetry             func(RetryInfo)                                  // told before every new attempt; may be nil
}

// RetryInfo describes a failed attempt and the next one. It is delivered
// before the next attempt starts, so a consumer can drop the partial text
// streamed by the failed attempt (Partial says whether there was any).
type RetryInfo struct {
	Kind     Kind          // why the attempt failed
	Attempt  int           // 1 for the first retry on this provider
	Wait     time.Duration // how long before the next attempt
	Asked    bool          // Wait is the server's Retry-After (capped)
	Provider string        // the provider that failed
	Next     string        // the provider of the next attempt (differs on fallback)
	Fallback bool          // the next attempt goes to another provider
	Partial  bool          // the failed attempt had streamed deltas
	Err      *Error        // the classified failure
}

// String renders the notice the UI shows, e.g. "rate limited by openai,
// retrying in 12 s" or "openai failed (HTTP 503), retry 1 in 30 s, as it
// asked (Retry-After)".
func (r RetryInfo) String() string {
	if r.Fallback {
		return fmt.Sprintf("%s failed (%s), switching to %s", r.Provider, r.why(), r.Next)
	}
	secs := int((r.Wait + time.Second - 1) / time.Second)
	asked := r.askedNote(secs)
	if r.Kind == KindRateLimited {
		return fmt.Sprintf("rate limited by %s, retrying in %d s%s", r.Provider, secs, asked)
	}
	if r.Kind == KindIdle && r.Err != nil {
		return fmt.Sprintf("%s %s for %s, retry %d in %d s", r.Provider, r.Err.sentNothing(), r.Err.Idle, r.Attempt, secs)
	}
	return fmt.Sprintf("%s failed (%s), retry %d in %d s%s", r.Provider, r.why(), r.Attempt, secs, asked)
}

// askedNote says the wait is the server's Retry-After, or that the server
// asked for longer than max_retry_wait lets keel wait.
func (r RetryInfo) askedNote(secs int) string {
	if !r.Asked {
		return ""
	}
	if r.Err != nil && r.Err.RetryAfter > r.Wait+time.Second {
		asked := int((r.Err.RetryAfter + time.Second - 1) / time.Second)
		return fmt.Sprintf(" (it asked for %d s; max_retry_wait caps the wait at %d s)", asked, secs)
	}
	return ", as it asked (Retry-After)"
}

// why names the failure: its HTTP status when there was one.
func (r RetryInfo) why() string {
	if r.Err != nil && r.Err.Status != 0 {
		return fmt.Sprintf("HTTP %d", r.Err.Status)
	}
	return r.Kind.String()
}

// Stream runs req against clients in order, retrying as the policy says.
// It returns the first successful Response, or the last classified error.
func (r *Retrier) Stream(ctx context.Context, clients []*Client, req Request, onDelta func(Delta)) (Response, error) {
	if len(clients) == 0 {
		return Response{}, errors.New("llm: no clients to stream from")
	}
	var last *Error
	for i, c := range clients {
		creq := req
		if i > 0 && c.cfg.Model != "" {
			creq.Model = "" // a fallback provider uses its own model
		}
		resp, err, next := r.tryClient(ctx, c, creq, onDelta)
		if err == nil {
			return resp, nil
		}
		last = err
		if !next || i == len(clients)-1 {
			return resp, err
		}
		r.notify(RetryInfo{Kind: err.Kind, Provider: c.Name(), Next: clients[i+1].Name(), Fallback: true, Err: err})
	}
	return Response{}, last
}

// tryClient runs the retry loop on one client. next reports whether the
// failure is one a fallback provider might not have.
func (r *Retrier) tryClient(ctx context.Context, c *Client, req Request, onDelta func(Delta)) (Response, *Error, bool) {
	waits, retries := 0, 0
	for {
		partial := false
		resp, err := c.Stream(ctx, req, func(d Delta) {
			partial = true
			if onDelta != nil {
				onDelta(d)
			}
		})
		if err == nil {
			return resp, nil, false
		}
		e := Classify(err)
		info := RetryInfo{Kind: e.Kind, Provider: c.Name(), Next: c.Name(), Partial: partial, Err: e}
		switch {
		case e.Kind == KindRateLimited && waits < r.maxWaits():
			waits++
			info.Attempt, info.Wait, info.Asked = waits, r.rateLimitWait(e, waits), e.RetryAfter > 0
		case e.Kind.Transient() && retries < r.maxRetries():
			retries++
			info.Attempt, info.Wait, info.Asked = retries, r.transientWait(e, retries), e.RetryAfter > 0
		case e.Kind == KindRateLimited || e.Kind.Transient():
			return resp, e, true
		default:
			return resp, e, false
		}
		r.notify(info)
		if err := r.sleep(ctx, info.Wait); err != nil {
			return Response{}, &Error{Kind: KindCancelled, Provider: c.Name(), Err: err}, false
		}
	}
}

func (r *Retrier) notify(info RetryInfo) {
	if r.OnRetry != nil {
		r.OnRetry(info)
	}
}
