package telemetry

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Exporter sends spans and metrics to one collector for the process's
// life. Make it with Start, end it with Shutdown.
type Exporter struct {
	opts    Options
	tp      *sdktrace.TracerProvider
	mp      *sdkmetric.MeterProvider // nil without metrics (keel log export)
	queue   *dropQueue
	watched *watchedExporter
	outage  *outage
	tracer  trace.Tracer
	inst    *instruments
	content content
}

// Start builds the exporters; nothing is sent until a span ends, and no
// connection is made before that.
func Start(ctx context.Context, o Options) (*Exporter, error) {
	return start(ctx, o, true)
}

// StartTraces is Start without metrics, for sending stored sessions.
func StartTraces(ctx context.Context, o Options) (*Exporter, error) {
	return start(ctx, o, false)
}

func start(ctx context.Context, o Options, metrics bool) (*Exporter, error) {
	if err := o.checkProtocol(); err != nil {
		return nil, err
	}
	if o.QueueSize <= 0 {
		o.QueueSize = 2048
	}
	if o.ExportTimeout <= 0 {
		o.ExportTimeout = 10 * time.Second
	}
	res, err := resource.New(ctx, resource.WithAttributes(attribute.String("service.name", "keel"), attribute.String("service.version", o.ServiceVersion)),
		resource.WithFromEnv(), resource.WithTelemetrySDK()) // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
	if err != nil {
		return nil, fmt.Errorf("telemetry resource: %w", err)
	}
	e := &Exporter{opts: o, outage: &outage{where: o.Where(), warn: o.Warn}, content: content{redact: o.Redact}}
	if err := e.startTraces(ctx, res); err != nil {
		return nil, err
	}
	if metrics {
		if err := e.startMetrics(ctx, res); err != nil {
			_ = e.tp.Shutdown(ctx)
			return nil, err
		}
	}
	e.inst = newInstruments(e.mp)
	register(e)
	return e, nil
}

func (e *Exporter) startTraces(ctx context.Context, res *resource.Resource) error {
	opts := []otlptracehttp.Option{otlptracehttp.WithTimeout(e.opts.ExportTimeout),
		otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: true, InitialInterval: 500 * time.Millisecond, MaxInterval: 2 * time.Second, MaxElapsedTime: e.opts.ExportTimeout})}
	if u, set := e.opts.signalURL("traces"); set {
		opts = append(opts, otlptracehttp.WithEndpointURL(u))
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return fmt.Errorf("telemetry traces exporter: %w", err)
	}
	e.watched = &watchedExporter{next: exp, outage: e.outage}
	bsp := sdktrace.NewBatchSpanProcessor(e.watched, sdktrace.WithBlocking(), sdktrace.WithMaxQueueSize(e.opts.QueueSize),
		sdktrace.WithExportTimeout(e.opts.ExportTimeout), sdktrace.WithBatchTimeout(2*time.Second))
	e.queue = newDropQueue(bsp, e.opts.QueueSize, e.opts.Blocking)
	e.tp = sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithSpanProcessor(e.queue))
	e.tracer = e.tp.Tracer("github.com/keel-dev/keel/agent/telemetry")
	return nil
}

func (e *Exporter) startMetrics(ctx context.Context, res *resource.Resource) error {
	opts := []otlpmetrichttp.Option{otlpmetrichttp.WithTimeout(e.opts.ExportTimeout),
		otlpmetrichttp.WithRetry(otlpmetrichttp.RetryConfig{Enabled: true, InitialInterval: 500 * time.Millisecond, MaxInterval: 2 * time.Second, MaxElapsedTime: e.opts.ExportTimeout})}
	if u, set := e.opts.signalURL("metrics"); set {
		opts = append(opts, otlpmetrichttp.WithEndpointURL(u))
	}
	exp, err := otlpmetrichttp.New(ctx, opts...)
	if err != nil {
		return fmt.Errorf("telemetry metrics exporter: %w", err)
	}
	e.mp = sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
	return nil
}

// Flush exports every span ended so far, and the metrics, within ctx.
func (e *Exporter) Flush(ctx context.Context) error {
	err := e.tp.ForceFlush(ctx)
	if e.mp != nil {
		err = errors.Join(err, e.mp.ForceFlush(ctx))
	}
	return err
}

// Shutdown sends what is queued and stops, within ctx: a collector that
// does not answer costs at most ctx's deadline.
func (e *Exporter) Shutdown(ctx context.Context) error {
	defer unregister(e)
	err := e.tp.Shutdown(ctx)
	if e.mp != nil {
		err = errors.Join(err, e.mp.Shutdown(ctx))
	}
	return err
}

// Dropped is how many spans never reached the collector: turned away by
// the full queue, or refused or lost in a failed export.
func (e *Exporter) Dropped() int64 { return e.queue.Dropped() + e.watched.lost.Load() }

// Sent is how many spans the collector took.
func (e *Exporter) Sent() int64 { return e.watched.sent.Load() }

// Where is the collector, as Options.Where says it.
func (e *Exporter) Where() string { return e.outage.where }

// Status is /status's line: where spans go and what was lost.
func (e *Exporter) Status() string {
	s := fmt.Sprintf("on: traces and metrics to %s (OTLP/HTTP), %d spans sent, %d dropped", e.Where(), e.Sent(), e.Dropped())
	if e.opts.LogContent {
		s += ", content on (redacted)"
	}
	if f := e.outage.lastFailure(); f != "" {
		s += "; failing: " + f
	}
	return s
}

// The SDK reports metric export failures and its own troubles through
// process-wide hooks; they go to the exporters alive, never to stderr
// (the TUI owns the terminal).
var (
	liveMu   sync.Mutex
	live     = map[*Exporter]bool{}
	hookOnce sync.Once
)

func register(e *Exporter) {
	hookOnce.Do(func() {
		otel.SetLogger(logr.Discard())
		otel.SetErrorHandler(otel.ErrorHandlerFunc(handleError))
	})
	liveMu.Lock()
	live[e] = true
	liveMu.Unlock()
}

func unregister(e *Exporter) {
	liveMu.Lock()
	delete(live, e)
	liveMu.Unlock()
}

func handleError(err error) {
	liveMu.Lock()
	defer liveMu.Unlock()
	for e := range live {
		e.outage.fail("an export", err)
	}
}
