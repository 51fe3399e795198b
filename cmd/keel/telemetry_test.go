package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/keel-dev/keel/config"
)

func TestTelemetryWanted(t *testing.T) {
	on, off := true, false
	cases := []struct {
		name    string
		enabled *bool // nil: not set in the configuration
		env     map[string]string
		want    bool
	}{
		{"off by default", nil, nil, false},
		{"enabled in config", &on, nil, true},
		{"an endpoint variable turns it on", nil, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, true},
		{"the traces variable too", nil, map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, true},
		{"enabled = false wins over the variable", &off, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, false},
		{"OTEL_SDK_DISABLED wins over enabled", &on, map[string]string{"OTEL_SDK_DISABLED": "true"}, false},
		{"a headers variable alone is not a wish", nil, map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer x"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := config.Defaults()
			if c.enabled != nil {
				cfg = loadTelemetryConfig(t, *c.enabled)
			}
			if got := telemetryWanted(cfg, func(n string) string { return c.env[n] }); got != c.want {
				t.Errorf("telemetryWanted = %v, want %v", got, c.want)
			}
		})
	}
}

func TestOTLPHeadersAreSecrets(t *testing.T) {
	env := map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20sk-otlp-123456,x-team=a", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "api-key=trace-key-7890"}
	vals := otlpHeaderValues(func(n string) string { return env[n] })
	if !slices.Contains(vals, "Bearer%20sk-otlp-123456") || !slices.Contains(vals, "trace-key-7890") || slices.Contains(vals, "a") {
		t.Errorf("header values to redact = %v", vals)
	}
	names := secretEnvNames(config.Defaults())
	for _, n := range otlpHeaderNames {
		if !slices.Contains(names, n) {
			t.Errorf("%s reaches run_command's environment", n)
		}
	}
}

// loadTelemetryConfig loads a config file that says enabled = on.
func loadTelemetryConfig(t *testing.T, on bool) *config.Config {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keel.toml")
	if err := os.WriteFile(path, []byte(fmt.Sprintf("[telemetry]\nenabled = %v\n", on)), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(config.LoadOptions{ConfigFile: path, Cwd: t.TempDir(), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
