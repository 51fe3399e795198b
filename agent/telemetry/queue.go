package telemetry

import (
	"context"
	"sync"
	"sync/atomic"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// dropQueue is the span processor the tracer provider calls when a span
// ends, on the agent's goroutine: it hands the span to a bounded channel
// and returns at once, dropping (and counting) the span when the channel
// is full. Its own goroutine feeds the batch processor behind it, which
// may block while the collector is slow; only this queue fills up then.
type dropQueue struct {
	next     sdktrace.SpanProcessor
	in       chan queued
	blocking bool // wait for room instead of dropping (keel log export)
	dropped  atomic.Int64
	stopped  atomic.Bool
	quit     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

// queued is an ended span, or a flush marker closed once every span
// queued before it reached next.
type queued struct {
	span    sdktrace.ReadOnlySpan
	flushed chan struct{}
}

func newDropQueue(next sdktrace.SpanProcessor, size int, blocking bool) *dropQueue {
	q := &dropQueue{next: next, in: make(chan queued, size), blocking: blocking, quit: make(chan struct{}), done: make(chan struct{})}
	go q.run()
	return q
}

func (q *dropQueue) run() {
	defer close(q.done)
	for {
		select {
		case it := <-q.in:
			q.forward(it)
		case <-q.quit:
			for { // what was queued before Shutdown still goes out
				select {
				case it := <-q.in:
					q.forward(it)
				default:
					return
				}
			}
		}
	}
}

func (q *dropQueue) forward(it queued) {
	if it.flushed != nil {
		close(it.flushed)
		return
	}
	q.next.OnEnd(it.span)
}

// OnStart does nothing: spans are exported when they end.
func (q *dropQueue) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd queues s, or drops it when the queue is full.
func (q *dropQueue) OnEnd(s sdktrace.ReadOnlySpan) {
	if q.stopped.Load() {
		q.dropped.Add(1)
		return
	}
	if q.blocking {
		select {
		case q.in <- queued{span: s}:
		case <-q.quit:
			q.dropped.Add(1)
		}
		return
	}
	select {
	case q.in <- queued{span: s}:
	default:
		q.dropped.Add(1)
	}
}

// ForceFlush waits until every span queued so far has been exported.
func (q *dropQueue) ForceFlush(ctx context.Context) error {
	if err := q.drain(ctx); err != nil {
		return err
	}
	return q.next.ForceFlush(ctx)
}

// drain waits until the spans queued so far reached next.
func (q *dropQueue) drain(ctx context.Context) error {
	flushed := make(chan struct{})
	select {
	case q.in <- queued{flushed: flushed}:
	case <-q.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-flushed:
		return nil
	case <-q.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Shutdown stops taking spans, hands what is queued to next and shuts it
// down, all within ctx.
func (q *dropQueue) Shutdown(ctx context.Context) error {
	var err error
	q.stopOnce.Do(func() {
		q.stopped.Store(true)
		close(q.quit)
		select {
		case <-q.done:
		case <-ctx.Done():
			err = ctx.Err()
			return
		}
		err = q.next.Shutdown(ctx)
	})
	return err
}

// Dropped is how many spans the full queue turned away.
func (q *dropQueue) Dropped() int64 { return q.dropped.Load() }
