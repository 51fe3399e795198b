package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/keel-dev/keel/agent"
	"github.com/keel-dev/keel/agent/datalog"
	"github.com/keel-dev/keel/agent/telemetry"
	"github.com/keel-dev/keel/config"
)

// telemetryShutdown bounds what a collector that does not answer costs at
// exit.
const telemetryShutdown = 3 * time.Second

// processTelemetry is the process's one exporter, started by the first
// session that wants it and shut down when keel exits.
type processTelemetry struct {
	once sync.Once
	exp  *telemetry.Exporter
	err  error
	// warn is where a failing collector's warning goes: the TUI's notices
	// or stderr, as the session that runs says.
	warn atomic.Pointer[func(string)]
}

// telemetryWanted reports whether this run exports: [telemetry] enabled,
// or an OTLP endpoint variable unless enabled = false was said; never
// with OTEL_SDK_DISABLED=true.
func telemetryWanted(cfg *config.Config, getenv func(string) string) bool {
	switch {
	case telemetry.Disabled(getenv):
		return false
	case cfg.Telemetry.Enabled:
		return true
	case cfg.Source("telemetry.enabled").Kind != config.FromDefault:
		return false // enabled = false, said on purpose
	}
	return telemetry.Enabled(getenv)
}

// telemetryOptions maps the configuration onto the exporter's options;
// content is redacted with the datalog's redaction and keel's secrets.
func telemetryOptions(cfg *config.Config, secrets []string) telemetry.Options {
	named := namedSecrets(cfg, secrets)
	for i, v := range otlpHeaderValues(os.Getenv) {
		named[fmt.Sprintf("OTLP_HEADER_%d", i+1)] = v
	}
	return telemetry.Options{Endpoint: cfg.Telemetry.Endpoint, LogContent: cfg.Telemetry.LogContent,
		Redact: datalog.Redactor(os.Environ(), named), ServiceVersion: version}
}

// otlpHeaderNames are the variables whose values may carry a collector's
// credentials: kept out of commands' environments and redacted.
var otlpHeaderNames = []string{"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS", "OTEL_EXPORTER_OTLP_METRICS_HEADERS"}

// otlpHeaderValues are the header values those variables set.
func otlpHeaderValues(getenv func(string) string) []string {
	var vals []string
	for _, name := range otlpHeaderNames {
		for _, kv := range strings.Split(getenv(name), ",") {
			if _, v, ok := strings.Cut(kv, "="); ok && len(strings.TrimSpace(v)) >= minSecretLen {
				vals = append(vals, strings.TrimSpace(v))
			}
		}
	}
	return vals
}

// telemetryExporter is the process's exporter, started on first use;
// nil when telemetry is off or could not start (notice says why).
func (a *app) telemetryExporter(cfg *config.Config, secrets []string, warn func(string)) (exp *telemetry.Exporter, notice string) {
	if !telemetryWanted(cfg, os.Getenv) {
		return nil, ""
	}
	pt := &a.tel
	pt.warn.Store(&warn)
	pt.once.Do(func() {
		opts := telemetryOptions(cfg, secrets)
		opts.Warn = func(s string) { (*pt.warn.Load())(s) }
		pt.exp, pt.err = telemetry.Start(context.Background(), opts)
		if pt.err == nil {
			notice = "telemetry: sending traces and metrics to " + pt.exp.Where()
			if cfg.Telemetry.LogContent {
				notice += ", with prompts, answers and tool calls (redacted)"
			}
		}
	})
	if pt.err != nil {
		return nil, "telemetry is off for this run: " + pt.err.Error()
	}
	return pt.exp, notice
}

// traceSession hooks a session being built to the exporter: its events
// feed a SessionTracer.
func traceSession(exp *telemetry.Exporter, opts *agent.Options, resumed bool, root string) *telemetry.SessionTracer {
	if exp == nil {
		return nil
	}
	tr := exp.Session(telemetry.SessionInfo{Provider: opts.ProviderName, Model: opts.Model, Resumed: resumed, Workspace: root})
	opts.Observer = tr.Observe
	return tr
}

// closeTelemetry sends what is queued, within telemetryShutdown, and says
// on stderr what could not be sent.
func (a *app) closeTelemetry() {
	exp := a.tel.exp
	if exp == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), telemetryShutdown)
	defer cancel()
	err := exp.Shutdown(ctx)
	if n := exp.Dropped(); n > 0 || err != nil {
		msg := fmt.Sprintf("keel: telemetry: %d span(s) were not sent to %s", n, exp.Where())
		if err != nil {
			msg += fmt.Sprintf(" (%v)", err)
		}
		fmt.Fprintln(a.stderr, msg)
	}
}

// telemetryStatus is /status's telemetry line.
func telemetryStatus(exp *telemetry.Exporter) func() string {
	if exp == nil {
		return func() string { return "off ([telemetry] enabled = true, or OTEL_EXPORTER_OTLP_ENDPOINT, turns it on)" }
	}
	return exp.Status
}
