package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
)

// telemetryPairs is how many off/on pairs the telemetry figure runs.
const telemetryPairs = 5

// measureTelemetry runs the telemetry A/B for the keel under test; a
// baseline keel may predate telemetry, so it is not measured.
func (o options) measureTelemetry(ctx context.Context, bins []string, all []Measurements, b Budgets, stderr io.Writer) error {
	for _, n := range b.RoundCounts(SourceTelemetry) {
		w := o.workload()
		w.Rounds = n
		fmt.Fprintf(stderr, "keelbench: %s: telemetry off and on, %d rounds × %d pairs\n", bins[0], n, telemetryPairs)
		pct, err := TelemetryOverhead(ctx, bins[0], w, telemetryPairs)
		if err != nil {
			return fmt.Errorf("the telemetry A/B: %w", err)
		}
		all[0].Telemetry[n] = pct
		for i := 1; i < len(all); i++ {
			all[i].Skipped[SourceTelemetry] = "measured for the keel under test only"
		}
	}
	return nil
}

// otlpSink is a collector that takes every OTLP/HTTP post and keeps
// nothing but a count: the figure is keel's cost of sending, not a
// backend's.
type otlpSink struct {
	srv   *httptest.Server
	posts atomic.Int64
}

func newOTLPSink() *otlpSink {
	s := &otlpSink{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		s.posts.Add(1)
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK) // an empty body is an empty export response
	}))
	return s
}

// TelemetryOverhead runs w with telemetry off and on (sending to a
// loopback sink), alternated pairs times so drift hits both alike, and
// returns the median CPU per round on as a percentage of off's.
func TelemetryOverhead(ctx context.Context, keel string, w Workload, pairs int) (float64, error) {
	sink := newOTLPSink()
	defer sink.srv.Close()
	seed, err := seedDatalog(ctx, keel)
	defer os.RemoveAll(seed)
	if err != nil {
		return 0, err
	}
	w.seed = seed
	var off, on []float64
	for range pairs {
		for _, otlp := range []string{"", sink.srv.URL} {
			w.OTLP = otlp
			r, err := RunOnce(ctx, keel, w)
			if err != nil {
				return 0, err
			}
			if otlp == "" {
				off = append(off, r.CPUPerRoundMs)
			} else {
				on = append(on, r.CPUPerRoundMs)
			}
		}
	}
	if sink.posts.Load() == 0 {
		return 0, fmt.Errorf("keel with telemetry on sent the sink nothing")
	}
	return 100 * Median(on) / Median(off), nil
}
