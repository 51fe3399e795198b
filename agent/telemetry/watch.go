package telemetry

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// outage turns export failures into one warning per outage: the first
// failure after a success (or the start) warns, the next ones only count.
type outage struct {
	where string
	warn  func(string)

	mu      sync.Mutex
	failing bool
	last    string // the last failure, for /status
}

func (o *outage) fail(what string, err error) {
	o.mu.Lock()
	first := !o.failing
	o.failing = true
	o.last = err.Error()
	o.mu.Unlock()
	if first && o.warn != nil {
		o.warn(fmt.Sprintf("telemetry: the collector at %s did not take %s (%v); keel carries on and tries again with the next batch", o.where, what, err))
	}
}

func (o *outage) ok() {
	o.mu.Lock()
	o.failing = false
	o.mu.Unlock()
}

// lastFailure is the failure of an outage still going on, or "".
func (o *outage) lastFailure() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.failing {
		return ""
	}
	return o.last
}

// watchedExporter counts what the OTLP exporter delivered and what it
// could not, and reports outages.
type watchedExporter struct {
	next   sdktrace.SpanExporter
	outage *outage
	sent   atomic.Int64
	lost   atomic.Int64
}

func (w *watchedExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := w.next.ExportSpans(ctx, spans)
	if err != nil {
		w.lost.Add(int64(len(spans)))
		w.outage.fail(fmt.Sprintf("%d spans", len(spans)), err)
		return err
	}
	w.sent.Add(int64(len(spans)))
	w.outage.ok()
	return nil
}

func (w *watchedExporter) Shutdown(ctx context.Context) error { return w.next.Shutdown(ctx) }
