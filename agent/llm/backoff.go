package llm

import (
	"context"
	"math/rand/v2"
	"time"
)

func (r *Retrier) maxWaits() int {
	return orDefault(r.MaxRateLimitWaits, DefaultMaxRateLimitWaits)
}

func (r *Retrier) maxRetries() int {
	return orDefault(r.MaxTransientRetries, DefaultMaxTransientRetries)
}

// orDefault maps 0 to the default and negative values to "none".
func orDefault(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// rateLimitWait honours Retry-After, capped; without one it backs off.
func (r *Retrier) rateLimitWait(e *Error, n int) time.Duration {
	d := e.RetryAfter
	if d <= 0 {
		d = r.backoff(n)
	}
	return min(d, r.retryAfterCap())
}

// transientWait honours a Retry-After the server sent with a retryable
// failure (a 503 while it restarts), capped; without one it backs off.
func (r *Retrier) transientWait(e *Error, n int) time.Duration {
	if e.RetryAfter > 0 {
		return min(e.RetryAfter, r.retryAfterCap())
	}
	return r.backoff(n)
}

func (r *Retrier) retryAfterCap() time.Duration {
	if r.MaxRateLimitWait <= 0 {
		return DefaultMaxRateLimitWait
	}
	return r.MaxRateLimitWait
}

// backoff returns the n-th (1-based) exponential backoff with jitter in
// [d/2, d), so parallel clients do not retry in lockstep.
func (r *Retrier) backoff(n int) time.Duration {
	base := r.BaseBackoff
	if base <= 0 {
		base = DefaultBaseBackoff
	}
	limit := r.MaxBackoff
	if limit <= 0 {
		limit = DefaultMaxBackoff
	}
	d := base
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	rnd := rand.Float64
	if r.Rand != nil {
		rnd = r.Rand
	}
	return d/2 + time.Duration(rnd()*float64(d/2))
}

func (r *Retrier) sleep(ctx context.Context, d time.Duration) error {
	if r.Sleep != nil {
		return r.Sleep(ctx, d)
	}
	return SleepContext(ctx, d)
}

// SleepContext waits for d or until ctx is done, whichever comes first, and
// returns ctx.Err() in the latter case.
func SleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
