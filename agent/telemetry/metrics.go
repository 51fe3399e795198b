package telemetry

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// instruments are the metrics keel records while a session runs. The
// gen_ai.client.* pair follows the GenAI conventions (names, units and
// the token histogram's buckets); keel.* are keel's own.
type instruments struct {
	tokens        metric.Int64Histogram   // gen_ai.client.token.usage
	duration      metric.Float64Histogram // gen_ai.client.operation.duration
	cost          metric.Float64Counter   // keel.cost
	roundDuration metric.Float64Histogram // keel.round.duration: request and tools
	toolDuration  metric.Float64Histogram // keel.tool.duration
	interventions metric.Int64Counter     // keel.interventions
	tasks         metric.Int64Counter     // keel.tasks

	// The attribute sets a round records with, made once per model and
	// tool outcome: building a set sorts and allocates.
	mu   sync.Mutex
	sets map[[3]string]metric.MeasurementOption
}

// tokenBuckets are the conventions' advice for gen_ai.client.token.usage.
var tokenBuckets = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}

// durationBuckets are the conventions' advice for operation durations.
var durationBuckets = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}

// newInstruments makes them on mp; with nil they record nothing.
func newInstruments(mp *sdkmetric.MeterProvider) *instruments {
	var p metric.MeterProvider = noop.NewMeterProvider()
	if mp != nil {
		p = mp
	}
	m := p.Meter("github.com/keel-dev/keel/agent/telemetry")
	in := &instruments{sets: map[[3]string]metric.MeasurementOption{}}
	// The SDK returns a working no-op instrument with any error, and the
	// names and units here are fixed: nothing to report.
	in.tokens, _ = m.Int64Histogram("gen_ai.client.token.usage", metric.WithUnit("{token}"),
		metric.WithDescription("Tokens used per round, by gen_ai.token.type"), metric.WithExplicitBucketBoundaries(tokenBuckets...))
	in.duration, _ = m.Float64Histogram("gen_ai.client.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("Time the model took to answer a round"), metric.WithExplicitBucketBoundaries(durationBuckets...))
	in.cost, _ = m.Float64Counter("keel.cost", metric.WithUnit("USD"), metric.WithDescription("What the rounds cost, where a price is known"))
	in.roundDuration, _ = m.Float64Histogram("keel.round.duration", metric.WithUnit("s"),
		metric.WithDescription("A round from its request to the end of its tools"), metric.WithExplicitBucketBoundaries(durationBuckets...))
	in.toolDuration, _ = m.Float64Histogram("keel.tool.duration", metric.WithUnit("s"),
		metric.WithDescription("A tool call's run"), metric.WithExplicitBucketBoundaries(durationBuckets...))
	in.interventions, _ = m.Int64Counter("keel.interventions", metric.WithUnit("{intervention}"),
		metric.WithDescription("Discipline's checkpoints and guard notes, by kind and action"))
	in.tasks, _ = m.Int64Counter("keel.tasks", metric.WithUnit("{task}"), metric.WithDescription("Tasks ended, by stop reason"))
	return in
}

// set is the attribute set named by key, made by kv on first use.
func (in *instruments) set(key [3]string, kv func() []attribute.KeyValue) metric.MeasurementOption {
	in.mu.Lock()
	defer in.mu.Unlock()
	o, ok := in.sets[key]
	if !ok {
		o = metric.WithAttributeSet(attribute.NewSet(kv()...))
		in.sets[key] = o
	}
	return o
}

// chat is a round's attributes, with a token type or without ("").
func (in *instruments) chat(provider, model, tokenType string) metric.MeasurementOption {
	return in.set([3]string{"chat " + tokenType, provider, model}, func() []attribute.KeyValue {
		kv := []attribute.KeyValue{keyOperation.String(opChat), keyProvider.String(provider), keyRequestModel.String(model)}
		if tokenType != "" {
			kv = append(kv, keyTokenType.String(tokenType))
		}
		return kv
	})
}

func (in *instruments) model(model string) metric.MeasurementOption {
	return in.set([3]string{"model", model}, func() []attribute.KeyValue { return []attribute.KeyValue{keyRequestModel.String(model)} })
}

// round records a round's model figures.
func (in *instruments) round(r roundFacts) {
	ctx := context.Background()
	in.tokens.Record(ctx, int64(r.usage.PromptTokens), in.chat(r.provider, r.model, "input"))
	in.tokens.Record(ctx, int64(r.usage.CompletionTokens), in.chat(r.provider, r.model, "output"))
	in.duration.Record(ctx, r.response.Seconds(), in.chat(r.provider, r.model, ""))
	if r.cost != nil {
		in.cost.Add(ctx, *r.cost, in.model(r.model))
	}
}

func (in *instruments) roundEnded(model string, d time.Duration) {
	in.roundDuration.Record(context.Background(), d.Seconds(), in.model(model))
}

func (in *instruments) tool(t toolFacts) {
	name, outcome := t.name, t.outcome()
	in.toolDuration.Record(context.Background(), t.run.Seconds(), in.set([3]string{"tool", name, outcome}, func() []attribute.KeyValue {
		return []attribute.KeyValue{keyToolName.String(name), keyToolOutcome.String(outcome)}
	}))
}

func (in *instruments) intervention(kind, action string) {
	in.interventions.Add(context.Background(), 1, metric.WithAttributes(keyInterventionKind.String(kind), keyInterventionAct.String(action)))
}

func (in *instruments) task(reason string) {
	in.tasks.Add(context.Background(), 1, metric.WithAttributes(keyStopReason.String(reason)))
}
