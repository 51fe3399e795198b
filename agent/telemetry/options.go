package telemetry

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Options configure an Exporter. cmd/keel fills them from [telemetry] and
// the environment.
type Options struct {
	// Endpoint is the collector's OTLP/HTTP base URL, such as
	// http://localhost:4318; /v1/traces and /v1/metrics are added. The
	// OTEL_EXPORTER_OTLP_ENDPOINT variables win over it; with neither,
	// http://localhost:4318.
	Endpoint string
	// LogContent sends prompts, answers, tool arguments and results,
	// through Redact. Off, no text the user or the model wrote is sent.
	LogContent bool
	// Redact hides secrets in content, as the datalog does.
	Redact func(string) string
	// ServiceVersion is service.version (keel's version).
	ServiceVersion string
	// Warn receives one line when the collector fails, once per outage.
	Warn func(string)
	// Getenv reads the OTEL_ variables keel looks at itself; nil: os.Getenv.
	// The SDK's exporters read the others (headers, timeouts) from the
	// process's environment.
	Getenv func(string) string
	// QueueSize is how many ended spans may wait for export before new
	// ones are dropped; 0: 2048.
	QueueSize int
	// Blocking waits for room instead of dropping (keel log export).
	Blocking bool
	// ExportTimeout bounds one export; 0: 10 s.
	ExportTimeout time.Duration
}

func (o Options) getenv(name string) string {
	if o.Getenv != nil {
		return o.Getenv(name)
	}
	return os.Getenv(name)
}

// ErrProtocol is returned for an OTLP protocol keel does not speak.
var ErrProtocol = errors.New("keel sends OTLP over HTTP with protobuf only")

// checkProtocol refuses OTEL_EXPORTER_OTLP_PROTOCOL values other than
// http/protobuf: the gRPC exporter would add megabytes to keel for a port
// every collector also serves over HTTP.
func (o Options) checkProtocol() error {
	for _, name := range []string{"OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"} {
		if v := strings.TrimSpace(o.getenv(name)); v != "" && v != "http/protobuf" {
			return fmt.Errorf("%s=%s: %w; set it to http/protobuf and point the endpoint at the collector's OTLP/HTTP port (4318)", name, v, ErrProtocol)
		}
	}
	return nil
}

// envEndpoint is the signal's endpoint from the standard variables, as
// the exporter will use it, or "".
func (o Options) envEndpoint(signal string) string {
	if v := o.getenv("OTEL_EXPORTER_OTLP_" + strings.ToUpper(signal) + "_ENDPOINT"); v != "" {
		return v
	}
	if v := o.getenv("OTEL_EXPORTER_OTLP_ENDPOINT"); v != "" {
		return strings.TrimRight(v, "/") + "/v1/" + signal
	}
	return ""
}

// signalURL is where a signal goes ("traces" or "metrics") and whether
// keel must tell the exporter (the variables it reads itself otherwise).
func (o Options) signalURL(signal string) (string, bool) {
	if v := o.envEndpoint(signal); v != "" {
		return v, false
	}
	base := o.Endpoint
	if base == "" {
		base = "http://localhost:4318"
	}
	return strings.TrimRight(base, "/") + "/v1/" + signal, true
}

// Where is the traces endpoint as /status and notices show it: scheme,
// host and port, never a path or query that may hold a key.
func (o Options) Where() string {
	raw, _ := o.signalURL("traces")
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "an endpoint that is not a URL"
	}
	return u.Scheme + "://" + u.Host
}

// Enabled reports whether the environment turns telemetry on by itself:
// an OTLP endpoint is set and OTEL_SDK_DISABLED is not true.
func Enabled(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Disabled reports OTEL_SDK_DISABLED=true, which turns telemetry off
// whatever the configuration says.
func Disabled(getenv func(string) string) bool {
	return strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true")
}
